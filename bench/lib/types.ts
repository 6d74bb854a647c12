/**
 * Answers of the REST API as the benchmarks read them, from the service's own output schemas
 * (type-only imports: nothing of src/ runs in the bench process through these).
 */
import type { z } from 'zod';
import type { ProductListItemOut } from '../../src/catalog/catalog.schemas';
import type { JobOut } from '../../src/jobs/jobs';
import type { SyncReportOut } from '../../src/jobs/sync-report';

/** A job as GetJob answers it. */
export type Job = z.infer<typeof JobOut>;

/** The report of a finished sync run, from its job's result; throws when the job has none. */
export function syncReportOf(job: Job): SyncReportOut {
  if (!job.result || !('report' in job.result)) throw new Error(`job ${job.jobId} has no report`);
  return job.result.report as SyncReportOut;
}

/** A product row of GetProducts. */
export type ProductListItem = z.infer<typeof ProductListItemOut>;

/** A page of GetProducts. */
export interface ProductPage {
  items: ProductListItem[];
  nextCursor: string | null;
}

/** The answer of every operation that starts a job (StartExport, StartImport, StartSync, ...). */
export interface JobRef {
  jobId: string;
}

import { z } from 'zod';

/**
 * What a mass edit reports in its job's `result.report` (docs/search.md): the
 * response schema of GetJob for that kind, and the shape the runner accumulates page by page.
 * Named, so the OpenAPI document (and the web client generated from it) carries it as a component.
 */
export const MassEditReportOut = z
  .object({
    updated: z.number().int(),
    unchanged: z.number().int(),
    /** The first failures (at most 1000); `failedCount` counts all of them. */
    failed: z.array(z.object({ productId: z.string(), sku: z.string().nullable(), error: z.string() })),
    failedCount: z.number().int(),
    /**
     * A member limited to category subtrees (docs/teams.md): the products the filter matched
     * outside them when the job started, left untouched. Absent for everyone else.
     */
    skipped: z.number().int().optional(),
  })
  .meta({ id: 'MassEditReport' });

export type MassEditReport = z.infer<typeof MassEditReportOut>;

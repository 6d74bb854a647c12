import { z } from 'zod';
import { startExport } from '../../exports/start-export';
import { EXPORTERS } from '../../exports/registry';
import { getJob, JobOut, JobRef } from '../../jobs/jobs';
import { defineTool, READ_ONLY, WRITE } from '../tool-definition';

/** Tools that queue exports and follow their background jobs (docs/design.md sections 5 and 6). */
export const exportTools = [
  defineTool({
    name: 'start_export',
    title: 'Start an export',
    description:
      'Queues an export of a whole catalog (for a user limited to category subtrees: the products of those subtrees) ' +
      'as a background job and returns its jobId at once. ' +
      `exportType is one of: ${Object.keys(EXPORTERS).join(', ')}. ` +
      'Follow the job with get_job until its state is succeeded or failed; the file is then downloadable in the web application.',
    input: z.strictObject({
      catalogId: z.uuid().describe('The catalog to export.'),
      departmentId: z.uuid().optional().describe("The catalog's department; omit it to use the user's own department."),
      exportType: z
        .string()
        .min(1)
        .max(50)
        .optional()
        .describe("Export format; omit it for the template's or the default format."),
      templateId: z.uuid().optional().describe('An export template (language, classification systems, price options).'),
    }),
    output: JobRef,
    annotations: WRITE,
    permission: 'publish',
    run: ({ db, caller, queue }, input) =>
      startExport({ db, queue }, caller, { ...input, departmentId: input.departmentId ?? caller.departmentId }),
  }),
  defineTool({
    name: 'get_job',
    title: 'Get a background job',
    description:
      'State and progress of a background job such as an export: queued, running, succeeded, failed or cancelled, ' +
      'progress {done, total}, the error of a failed job and the result file (name, type, size) of a succeeded one.',
    input: z.strictObject({ jobId: z.uuid().describe('The jobId returned by start_export.') }),
    output: JobOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getJob(db, caller, input.jobId),
  }),
];

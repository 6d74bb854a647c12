import { z } from 'zod';
import { jobs } from '../db/schema';
import { SyncReport } from '../jobs/sync-report';

/**
 * Public contract of the Sync controller (docs/sync.md). Written by hand: these shapes are what
 * the web UI and scripts rely on, not the column layout.
 */

const SYNC_SCHEDULES = ['hourly', 'daily'] as const;
const MISSING_OPTIONS = ['deactivate', 'ignore'] as const;

const SyncOptionsDto = z.strictObject({
  missing: z.enum(MISSING_OPTIONS).default('deactivate'),
  maxDeactivationPercent: z.number().min(0).max(100).default(10),
  schedule: z.enum(SYNC_SCHEDULES).nullable().default(null),
  /** Tax code (as in the shop's /mappings) for products without a `tax_code` attribute value. */
  defaultTaxCode: z.string().trim().min(1).max(50).optional(),
  /** The channel this connection feeds (docs/completeness.md): its requirements judge `onlyComplete`. */
  channelId: z.uuid().optional(),
  /** Send only the masters complete for `channelId` in every language of the channel; the report counts the rest and why. */
  onlyComplete: z
    .boolean()
    .optional()
    .describe(
      'Send only masters complete for channelId in every language of the channel, each without its incomplete variants (a complete master whose variants are all incomplete goes out without them); the report counts masters and variants left out and what they lack',
    ),
});

const connectorUrl = z
  .url({ protocol: /^https?$/, error: 'connectorUrl must be an http(s) URL' })
  .max(500)
  .refine((value) => {
    // Refinements also run after the url check failed (zod reports every issue): never throw here.
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return !url.username && !url.password && !url.search && !url.hash;
  }, 'connectorUrl must not carry credentials, a query or a fragment');

const connectionFields = {
  departmentId: z.uuid(),
  catalogId: z.uuid(),
  name: z.string().trim().min(1).max(100),
  connectorUrl,
  keyId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\x21-\x7e]+$/, 'keyId must be printable ASCII without spaces'),
  options: SyncOptionsDto.default({ missing: 'deactivate', maxDeactivationPercent: 10, schedule: null }),
};

const secret = z.string().min(16, 'secret must have at least 16 characters').max(500);

export const AddConnectionDto = z.strictObject({ ...connectionFields, secret });
export const UpdateConnectionDto = z.strictObject({
  ...connectionFields,
  connectionId: z.uuid(),
  secret: secret.optional(),
});
export const ConnectionRefDto = z.strictObject({ departmentId: z.uuid(), connectionId: z.uuid() });
export const StartSyncDto = z.strictObject({
  departmentId: z.uuid(),
  connectionId: z.uuid(),
  dryRun: z.boolean().default(false),
  confirmDeactivations: z.boolean().default(false),
});
export const GetConnectionsQuery = z.strictObject({ departmentId: z.uuid().optional() });
export const GetRunsQuery = z.strictObject({
  connectionId: z.uuid(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export type AddConnectionInput = z.infer<typeof AddConnectionDto>;
export type UpdateConnectionInput = z.infer<typeof UpdateConnectionDto>;
export type StartSyncInput = z.infer<typeof StartSyncDto>;

export const LastRun = z.object({
  jobId: z.string(),
  state: z.enum(jobs.state.enumValues),
  dryRun: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  report: SyncReport.nullable(),
});

export const ConnectionOut = z.object({
  connectionId: z.string(),
  departmentId: z.string(),
  catalogId: z.string(),
  name: z.string(),
  connectorUrl: z.string(),
  keyId: z.string(),
  options: z.object({
    missing: z.enum(MISSING_OPTIONS),
    maxDeactivationPercent: z.number(),
    schedule: z.enum(SYNC_SCHEDULES).nullable(),
    defaultTaxCode: z.string().optional(),
    channelId: z.string().optional(),
    onlyComplete: z.boolean().optional(),
  }),
  hasSecret: z.literal(true),
  nextRunAt: z.string().nullable(),
  lastRun: LastRun.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const TestConnectionOut = z.object({
  ok: z.boolean(),
  /** HTTP status of the connector's answer; 0 when it could not be reached. */
  status: z.number().int(),
  mappings: z.object({ manufacturers: z.number().int(), units: z.number().int(), taxes: z.number().int() }).nullable(),
  error: z.string().optional(),
});

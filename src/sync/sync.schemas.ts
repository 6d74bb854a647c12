import { z } from 'zod';
import { jobs } from '../db/schema';
import { SyncReport } from '../jobs/sync-report';
import { SyncProgressOut } from '../jobs/sync-progress';
import { mappingInputSchema, TARGET_KINDS, targetCredentialsSchema, targetUrlSchema } from './protocol/target';

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

/**
 * The shop a connection's connector writes into (docs/shops.md, "The PIM side"), sent as
 * PUT /target before each run. What a read returns is accepted back: `hasCredentials` is
 * read-only and ignored, and credentials left out keep the stored ones.
 */
const ShopDto = z
  .strictObject({
    kind: z.enum(TARGET_KINDS).describe('The shop engine (GetShopDefaults lists what each needs)'),
    url: targetUrlSchema
      .refine((value) => {
        if (!URL.canParse(value)) return true;
        const url = new URL(value);
        return !url.username && !url.password;
      }, 'shop.url must not carry credentials (put them in shop.credentials)')
      .optional()
      .describe("The shop's base URL (Vendure: its admin-api URL); not needed for the reference store"),
    credentials: targetCredentialsSchema
      .optional()
      .describe(
        'Write-only: encrypted at rest, never returned (reads say hasCredentials). Left out, the stored ones stay (needed when the kind changes).',
      ),
    mapping: mappingInputSchema
      .optional()
      .describe("Any part of the mapping; the rest comes from the kind's defaults (GetShopDefaults)"),
    hasCredentials: z.boolean().optional().describe('Read-only: ignored'),
  })
  .refine((shop) => shop.kind === 'reference' || shop.url !== undefined, {
    path: ['url'],
    message: 'url is required',
  });
export type ShopInput = z.infer<typeof ShopDto>;

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

export const AddConnectionDto = z.strictObject({
  ...connectionFields,
  secret,
  shop: ShopDto.nullable().optional().describe('The shop the connector writes into; absent or null: none'),
});
export const UpdateConnectionDto = z.strictObject({
  ...connectionFields,
  connectionId: z.uuid(),
  secret: secret.optional(),
  shop: ShopDto.nullable()
    .optional()
    .describe('The shop the connector writes into; absent: unchanged; null: removed with its credentials'),
});
export const GetConnectionQuery = z.strictObject({ connectionId: z.uuid() });
export const GetShopDefaultsQuery = z.strictObject({ kind: z.enum(TARGET_KINDS) });
export const ConnectionRefDto = z.strictObject({ departmentId: z.uuid(), connectionId: z.uuid() });
/** The connector fields a test of unsaved settings may carry, as edited in the form. */
const EDITED_CONNECTOR_FIELDS = ['catalogId', 'connectorUrl', 'keyId', 'secret'] as const;

export const TestConnectionDto = z
  .strictObject({
    departmentId: z.uuid(),
    connectionId: z
      .uuid()
      .optional()
      .describe('The saved connection; left out, a connection not saved yet is tested (shop and its connector fields)'),
    catalogId: connectionFields.catalogId
      .optional()
      .describe('With shop: the catalog as edited, whose languages the warnings judge (left out: the saved one)'),
    connectorUrl: connectorUrl
      .optional()
      .describe('With shop: the connector URL as edited (left out: the saved one); refused when private or local'),
    keyId: connectionFields.keyId.optional().describe('With shop: the key id as edited (left out: the saved one)'),
    secret: secret
      .optional()
      .describe('Write-only, with shop: the secret as edited (left out: the saved one); never stored or returned'),
    shop: ShopDto.nullable()
      .optional()
      .describe(
        "Admin only: test these shop settings as edited instead of the saved ones (absent or null: the saved ones); nothing is stored. Credentials left out are the stored ones (same kind); the connector, key, secret and catalog are the edited ones where given, else the saved connection's",
      ),
  })
  .superRefine((input, ctx) => {
    if (!input.shop) {
      if (!input.connectionId)
        ctx.addIssue({ code: 'custom', path: ['connectionId'], message: 'connectionId is required' });
      for (const field of EDITED_CONNECTOR_FIELDS)
        if (input[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: `${field} is tested only with shop settings` });
      return;
    }
    // A connection not saved yet has no saved values to fall back on.
    if (!input.connectionId)
      for (const field of EDITED_CONNECTOR_FIELDS)
        if (input[field] === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: `${field} is required to test a connection not saved yet`,
          });
  });
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
export type TestConnectionInput = z.infer<typeof TestConnectionDto>;
export type StartSyncInput = z.infer<typeof StartSyncDto>;

export const LastRun = z.object({
  jobId: z.string(),
  state: z.enum(jobs.state.enumValues),
  dryRun: z.boolean(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  report: SyncReport.nullable(),
  /**
   * Masters handled of the catalog's (`done`, `total`, as GetJob), and where the run stands
   * against the shop: batches acknowledged (`batchNo`) and records done; the last two are
   * absent while the run is queued.
   */
  progress: z.object({
    done: z.number().int(),
    total: z.number().int(),
    batchNo: SyncProgressOut.shape.batchNo.optional(),
    records: SyncProgressOut.shape.records.optional(),
    recordsTotal: SyncProgressOut.shape.recordsTotal,
  }),
});

const TargetMappingOut = z.object({
  languages: z.record(z.string(), z.string()),
  defaultLanguage: z.string(),
  priceType: z.string().nullable(),
  currency: z.string(),
  pricesIncludeTax: z.boolean(),
  features: z.object({
    classification: z.boolean(),
    values: z.union([z.boolean(), z.array(z.string())]),
    featureBlocks: z.array(z.string()),
  }),
  onDeactivate: z.enum(['delete', 'disable']),
  imagePurposes: z.array(z.string()),
  references: z.boolean(),
});

export const ShopDefaultsOut = z.object({
  kind: z.enum(TARGET_KINDS),
  mapping: TargetMappingOut,
  urlRequired: z.boolean(),
  /** One of the sets, every field of it; the first is the usual one. */
  credentials: z.array(z.array(z.object({ name: z.string(), secret: z.boolean() }))),
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
  shop: z
    .object({
      kind: z.enum(TARGET_KINDS),
      url: z.string().nullable(),
      mapping: TargetMappingOut,
      hasCredentials: z.boolean(),
    })
    .nullable(),
  /**
   * The connector still points this connection's key at a shop the PIM no longer names for it
   * (the reset could not be sent when the shop was removed): DELETE /target goes before the
   * key's next run.
   */
  targetResetPending: z.boolean(),
  nextRunAt: z.string().nullable(),
  lastRun: LastRun.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const DeleteConnectionOut = z.object({
  connectionId: z.string(),
  deleted: z.literal(true),
  /** The connector could not be told to drop the connection's shop (DELETE /target); it is told before the key's next run. */
  targetResetPending: z.boolean(),
});

export const TestConnectionOut = z.object({
  ok: z.boolean(),
  /** HTTP status of the connector's answer; 0 when it could not be reached. */
  status: z.number().int(),
  mappings: z.object({ manufacturers: z.number().int(), units: z.number().int(), taxes: z.number().int() }).nullable(),
  error: z.string().optional(),
  /** With a shop: what the shop reported (POST /target/test), null when it refused or was not reached. */
  shop: z
    .object({
      name: z.string(),
      languages: z.array(z.string()),
      currencies: z.array(z.string()),
      details: z.record(z.string(), z.string()),
    })
    .nullable()
    .optional(),
  /** With a shop: what will not arrive as expected (a published language without a locale, a locale the shop lacks). */
  warnings: z.array(z.string()).optional(),
});

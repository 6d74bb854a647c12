/**
 * The layer table of src/, bottom first: one line per folder, as the tree shows it. A file may
 * import files of its own layer or of a layer below, never above (docs/architecture.md explains
 * the order), and drawn folder by folder no arrow points up either. A folder holds every file
 * below it, and a longer folder beats a shorter one (`src/sync/protocol/` in the kernel under
 * `src/sync/`). A file placed apart from its folder is an exception, named with its reason; the
 * route and tool files beside their domain (STYLE.md: everything about products in one place)
 * are the one such glob. A part a lower layer needs gets its own folder down there (`src/model/`,
 * `src/records/`) rather than a name in this table. `npm run check:layers`
 * (scripts/check-layers.ts) enforces it.
 */
import type { Boundary, Layer } from './lib/import-graph';

export const LAYERS: readonly Layer[] = [
  {
    name: 'kernel',
    why: 'pure building blocks every layer shares: errors, ids, paging, clock, hashing, the caller, value rules and sets; and the sync wire protocol, which the connector shares and which imports nothing',
    folders: ['src/kernel/', 'src/sync/protocol/'],
  },
  {
    name: 'db',
    why: 'the schema, the D1 client, JSON rows, and the tenant-scoped finders every domain checks with',
    folders: ['src/db/'],
  },
  {
    name: 'bindings',
    why: 'the Worker bindings and the Hono env: types only, over db and kernel',
    folders: [],
    exceptions: [
      {
        path: 'src/env.ts',
        why: 'the types every layer names (Env, AppEnv, the job message), at the root of src/ beside the Worker as wrangler types expects',
      },
    ],
  },
  {
    name: 'model',
    why: 'the product as every domain reads and writes it: the aggregate, fields, price list, translation store, feature-block types and rows, reference types, SKU rules, company languages',
    folders: ['src/model/'],
  },
  {
    name: 'records',
    why: 'what every write records in its own batch: the history entry and the sync record, and the guard and read context that make them exact under concurrency',
    folders: ['src/records/'],
  },
  {
    name: 'jobs',
    why: 'job rows, their queue message and lease, and the reports a job row carries; the runners that dispatch to the domains sit far above',
    folders: ['src/jobs/'],
  },
  {
    name: 'leaf domains',
    why: 'domains that write through the records and need no other domain',
    folders: ['src/accounts/', 'src/classification/', 'src/media/', 'src/contact/'],
  },
  { name: 'catalog', why: 'catalogs, categories, products, values, mass edit, upsert', folders: ['src/catalog/'] },
  {
    name: 'completeness',
    why: 'channels, their requirements and the completeness scores over the catalog, which exports and sync read',
    folders: ['src/completeness/'],
  },
  { name: 'exports', why: 'read the catalog through the aggregate, run as jobs', folders: ['src/exports/'] },
  { name: 'imports', why: 'write through the catalog upsert, reuse the export formats', folders: ['src/imports/'] },
  {
    name: 'releases',
    why: 'classification releases (ETIM, ECLASS, proficl@ss) loaded as jobs through the import readers',
    folders: ['src/releases/'],
  },
  { name: 'sync', why: 'reads the catalog and media, runs as jobs', folders: ['src/sync/'] },
  {
    name: 'history',
    why: 'lists and restores versions: a restore writes every kind of element',
    folders: ['src/history/'],
  },
  {
    name: 'webhooks',
    why: 'follow the history feed and the outbox: endpoints, the per-company dispatcher, signed deliveries with retries',
    folders: ['src/webhooks/'],
  },
  {
    name: 'runners',
    why: 'the queue consumer and the recovery dispatch each job kind to its domain',
    folders: ['src/runners/'],
  },
  {
    name: 'http',
    why: 'what routes are built with: validation, middleware, errors to JSON, rate limits, OpenAPI',
    folders: ['src/http/', 'src/openapi/'],
  },
  {
    name: 'auth',
    why: 'the OAuth server, agent authentication and the sign-in pages the routes use',
    folders: ['src/oauth/'],
  },
  {
    name: 'surfaces',
    why: 'REST routes, the agent API, MCP tools and server: thin, over the domain functions',
    folders: ['src/mcp/', 'src/ai/'],
    exceptions: [
      {
        path: 'src/**/*.routes.ts',
        why: "a domain's REST routes sit in its folder (STYLE.md: everything about products in one place) but above it",
      },
      { path: 'src/**/*.routes.tsx', why: 'the same, for routes that render a page' },
      { path: 'src/**/*.tools.ts', why: "a domain's MCP tools, beside its routes for the same reason" },
    ],
  },
  {
    name: 'composition',
    why: 'the Worker: the Hono app and the exported handlers',
    folders: [],
    exceptions: [
      {
        path: 'src/*.ts',
        why: "the Worker's entry points (app, index, scheduled, consumer) sit at the root of src/, where wrangler.toml names them",
      },
    ],
  },
];

/** Parts that may import only the listed places: the connector and the protocol it shares with the PIM. */
export const BOUNDARIES: readonly Boundary[] = [
  { from: 'connector/', mayImport: ['connector/', 'src/sync/protocol/'] },
  // The product statuses, the decimal rule of amounts and the unit code rule (an order detail's
  // content unit) are part of the wire format; their homes import nothing but decimal.ts, so the
  // connector bundles them as they are.
  {
    from: 'src/sync/protocol/',
    mayImport: [
      'src/sync/protocol/',
      'src/kernel/product-status.ts',
      'src/kernel/decimal.ts',
      'src/kernel/code-rules.ts',
    ],
  },
];

/**
 * The layer table of src/, bottom first: a file may import files of its own layer or of a
 * layer below, never above (docs/architecture.md explains the order). The most specific path
 * places a file: a file beats a glob beats a folder, a longer folder beats a shorter one. A
 * folder is one domain (STYLE.md); where a domain's files serve at two heights (history's
 * recording below the catalog, its restore above it), the lower files are named one by one.
 * `npm run check:layers` (scripts/check-layers.ts) enforces it; docs/architecture.md shows it as a table.
 */
import type { Boundary, Layer } from './lib/import-graph';

export const LAYERS: readonly Layer[] = [
  {
    name: 'kernel',
    why: 'pure building blocks every layer shares: errors, ids, paging, clock, hashing, the caller, value rules and sets; and the sync wire protocol, which the connector shares and which imports nothing',
    paths: ['src/kernel/', 'src/sync/protocol/'],
  },
  {
    name: 'db',
    why: 'the schema, the D1 client, JSON rows, and the tenant-scoped finders every domain checks with',
    paths: ['src/db/'],
  },
  {
    name: 'bindings',
    why: 'the Worker bindings and the Hono env: types only, over db and kernel',
    paths: ['src/env.ts'],
  },
  {
    name: 'model',
    why: 'what the recorders and readers below the catalog need of it: the product fields and the product aggregate; and the sync and mass-edit reports a job row carries',
    paths: [
      'src/model/fields.ts',
      'src/model/product-aggregate.ts',
      'src/sync/sync.schemas.ts',
      'src/jobs/mass-edit-report.ts',
      'src/model/price-list.ts',
      'src/model/feature-block-types.ts',
      'src/model/feature-block-rows.ts',
      'src/model/translation-store.ts',
      'src/model/company-languages.ts',
      'src/model/reference-types.ts',
      'src/model/price-base.ts',
    ],
  },
  {
    name: 'records',
    why: 'what every write records in its own batch: the history entry and the sync record, and the guard and read context that make them exact under concurrency',
    paths: [
      'src/records/history-record.ts',
      'src/records/snapshot.ts',
      'src/records/current-value.ts',
      'src/records/sync-record.ts',
      'src/records/category-paths.ts',
      'src/records/fingerprint-after.ts',
      'src/records/write-guard.ts',
      'src/records/write-context.ts',
      'src/records/published-languages.ts',
    ],
  },
  {
    name: 'jobs',
    why: 'job rows, their queue message and lease; the runners that dispatch to the domains sit far above',
    paths: ['src/jobs/'],
  },
  {
    name: 'leaf domains',
    why: 'domains that write through the records and need no other domain',
    paths: ['src/accounts/', 'src/classification/', 'src/media/', 'src/contact/'],
  },
  { name: 'catalog', why: 'catalogs, categories, products, values, mass edit, upsert', paths: ['src/catalog/'] },
  {
    name: 'completeness',
    why: 'channels, their requirements and the completeness scores over the catalog, which exports and sync read',
    paths: ['src/completeness/'],
  },
  { name: 'exports', why: 'read the catalog through the aggregate, run as jobs', paths: ['src/exports/'] },
  { name: 'imports', why: 'write through the catalog upsert, reuse the export formats', paths: ['src/imports/'] },
  {
    name: 'releases',
    why: 'classification releases (ETIM, ECLASS, proficl@ss) loaded as jobs through the import readers',
    paths: ['src/releases/'],
  },
  { name: 'sync', why: 'reads the catalog and media, runs as jobs', paths: ['src/sync/'] },
  {
    name: 'history',
    why: 'lists and restores versions: a restore writes every kind of element',
    paths: ['src/history/'],
  },
  {
    name: 'runners',
    why: 'the queue consumer and the recovery dispatch each job kind to its domain',
    paths: ['src/runners/queue-consumer.ts', 'src/runners/recovery.ts'],
  },
  {
    name: 'http',
    why: 'what routes are built with: validation, middleware, errors to JSON, rate limits, OpenAPI',
    paths: ['src/http/', 'src/openapi/'],
  },
  {
    name: 'auth',
    why: 'the OAuth server, agent authentication and the sign-in pages the routes use',
    paths: ['src/oauth/'],
  },
  {
    name: 'surfaces',
    why: 'REST routes, the agent API, MCP tools and server: thin, over the domain functions',
    paths: [
      'src/**/*.routes.ts',
      'src/**/*.routes.tsx',
      'src/**/*.tools.ts',
      'src/mcp/',
      'src/ai/',
      'src/oauth/oauth.routes.ts',
    ],
  },
  {
    name: 'composition',
    why: 'the Worker: the Hono app and the exported handlers',
    paths: ['src/app.ts', 'src/index.ts', 'src/scheduled.ts', 'src/consumer.ts'],
  },
];

/** Parts that may import only the listed places: the connector and the protocol it shares with the PIM. */
export const BOUNDARIES: readonly Boundary[] = [
  { from: 'connector/', mayImport: ['connector/', 'src/sync/protocol/'] },
  // The product statuses are part of the wire format; their one home imports nothing, so the
  // connector bundles it as it is.
  { from: 'src/sync/protocol/', mayImport: ['src/sync/protocol/', 'src/kernel/product-status.ts'] },
];

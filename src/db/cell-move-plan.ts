/**
 * What a move copies (src/db/cell-move.ts): every tenant table, parents before children, each
 * with the SQL that selects one company's rows. A table added by a later migration that holds
 * tenant rows must be added here (test/cell-move.test.ts fails for a table with a `company_id`
 * column that is neither here nor in DERIVED_TABLES).
 *
 * Not copied, because the target's triggers rebuild them from the copied rows (they are keyed by
 * the target's own rowids or count across companies): DERIVED_TABLES.
 */
export interface CopyStep {
  table: string;
  /** SQL condition selecting the company's rows, with `?` placeholders. */
  where: string;
  bind: (companyId: string) => unknown[];
  /** Columns not written (an integer key the target assigns itself). */
  omit?: string[];
  /** Columns written with a fixed value (a count the target's triggers rebuild). */
  set?: Record<string, unknown>;
  /** Insert or update (the company and department rows exist in cell-1 already). */
  upsert?: boolean;
  /** Identity rows: kept in cell-1 (the directory) when the company leaves it. */
  identity?: boolean;
  /**
   * Copied with the other feed tables in the source's feed order (src/db/cell-move-feed.ts), not
   * table by table: the target's triggers number them in that order.
   */
  feed?: boolean;
  /** Maps integer keys of the source to the target's (after the parent rows were copied). */
  remap?: (
    source: D1Database,
    target: D1Database,
    companyId: string,
  ) => Promise<(columns: string[], values: unknown[]) => unknown[]>;
}

export const DERIVED_TABLES = [
  'products_fts',
  'translation_gaps',
  'completeness',
  'completeness_counts',
  'classification_class_use',
  'release_product_counts',
  // counted per catalog by the price and feature-block triggers as those rows are copied (migration 0065)
  'catalog_codes_in_use',
  // the feed's sequence: the target's triggers number the copied versions and events in the
  // source's order (src/db/cell-move-feed.ts); the old cell's rows are deleted after the switch
  'change_feed',
  // a scoped member's kept counts (migration 0083): made again by the first count in the new
  // cell, then kept by the triggers of the rows copied and deleted
  'scope_sets',
  // a catalog scope's days (migration 0094), keyed by the cell's channel keys: counted again in
  // the new cell from the move's day on, as completeness_daily starts again there
  'catalog_scopes',
  'catalog_scope_completeness_daily',
];

const own = (column = 'company_id') => ({ where: `${column} = ?`, bind: (c: string) => [c] });
const ofProducts = { where: 'product_id IN (SELECT id FROM products WHERE company_id = ?)', bind: (c: string) => [c] };
const ofJobs = { where: 'job_id IN (SELECT id FROM jobs WHERE company_id = ?)', bind: (c: string) => [c] };
const ofCatalogs = { where: 'catalog_id IN (SELECT id FROM catalogs WHERE company_id = ?)', bind: (c: string) => [c] };
const ofLinks = {
  where: 'link_id IN (SELECT id FROM classification_links WHERE company_id = ?)',
  bind: (c: string) => [c],
};
/** Elements a media file or a translation can belong to. */
const ELEMENTS = `SELECT id FROM products WHERE company_id = ?1 UNION ALL SELECT id FROM categories WHERE company_id = ?1
  UNION ALL SELECT id FROM catalogs WHERE company_id = ?1 UNION ALL SELECT id FROM attributes WHERE company_id = ?1`;

/** Maps an integer key column through `natural`: source key -> natural key -> target key. */
function integerKey(column: string, table: string, natural: string) {
  return async (source: D1Database, target: D1Database, companyId: string) => {
    const query = `SELECT id, ${natural} AS natural FROM ${table} WHERE company_id = ?`;
    const [from, to] = await Promise.all(
      [source, target].map((d1) => d1.prepare(query).bind(companyId).all<{ id: number; natural: string }>()),
    );
    const byNatural = new Map(to!.results.map((r) => [r.natural, r.id]));
    const map = new Map(from!.results.map((r) => [r.id, byNatural.get(r.natural)]));
    return (columns: string[], values: unknown[]) => {
      const at = columns.indexOf(column);
      const copy = [...values];
      copy[at] = map.get(copy[at] as number);
      return copy;
    };
  };
}

export const COPY_PLAN: CopyStep[] = [
  { table: 'companies', ...own('id'), upsert: true, identity: true },
  { table: 'departments', ...own(), upsert: true, identity: true },
  { table: 'attributes', ...own() },
  { table: 'catalogs', ...own() },
  // product_count is rebuilt by the product_categories triggers as the links are copied.
  { table: 'categories', ...own(), set: { product_count: 0 } },
  { table: 'products', ...own() },
  { table: 'product_categories', ...ofProducts },
  { table: 'product_prices', ...ofProducts },
  { table: 'product_references', ...ofProducts },
  { table: 'product_udx', ...ofProducts },
  { table: 'product_feature_blocks', ...ofProducts },
  {
    table: 'attribute_values',
    where: 'attribute_id IN (SELECT id FROM attributes WHERE company_id = ?)',
    bind: (c) => [c],
  },
  { table: 'media', where: `element_id IN (${ELEMENTS})`, bind: (c) => [c] },
  {
    table: 'translations',
    where: `element_id IN (${ELEMENTS} UNION ALL SELECT id FROM media WHERE element_id IN (${ELEMENTS}))`,
    bind: (c) => [c],
  },
  // a catalog's BMEcat price formulas (migration 0089)
  { table: 'catalog_formulas', ...own() },
  { table: 'search_head_bounds', ...ofCatalogs },
  { table: 'search_heads', ...ofCatalogs },
  { table: 'classification_links', ...own(), omit: ['id'] },
  {
    table: 'classification_link_classes',
    ...ofLinks,
    remap: integerKey('link_id', 'classification_links', 'link_id'),
  },
  {
    table: 'classification_link_features',
    ...ofLinks,
    remap: integerKey('link_id', 'classification_links', 'link_id'),
  },
  { table: 'channels', ...own(), omit: ['id'] },
  { table: 'channel_rules', ...own(), remap: integerKey('channel_key', 'channels', 'channel_id') },
  { table: 'export_templates', ...own() },
  { table: 'jobs', ...own() },
  { table: 'import_files', ...own() },
  { table: 'import_groups', ...ofJobs },
  { table: 'import_rejections', ...ofJobs },
  { table: 'import_warnings', ...ofJobs },
  { table: 'import_skus', ...ofJobs },
  { table: 'import_placements', ...ofJobs },
  { table: 'import_dry_products', ...ofJobs },
  { table: 'sync_connections', ...own() },
  { table: 'sync_runs', ...own() },
  { table: 'sync_target_resets', ...own() },
  { table: 'sync_run_items', ...ofJobs },
  // the history and the review and completeness events, together in the source's feed order: the
  // target's triggers number them in its feed in that order (no outbox rows: the endpoints come later)
  { table: 'history_versions', ...own(), feed: true },
  { table: 'domain_events', ...own(), feed: true },
  // after the history: the target's trigger review_back_on_change finds no state to move while versions are copied
  { table: 'review_states', ...own(), remap: integerKey('channel_key', 'channels', 'channel_id') },
  { table: 'webhook_endpoints', ...own() },
  { table: 'webhook_deliveries', ...own() },
  { table: 'webhook_outbox', ...own(), omit: ['seq'] },
  // the target numbers the feed anew: its dispatcher starts at the end of the copied feed and outbox
  { table: 'webhook_dispatch', ...own(), set: { feed_seq: null, outbox_seq: null } },
];

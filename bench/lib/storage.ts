import { execFileSync } from 'node:child_process';

const sql = (file: string, query: string) => execFileSync('sqlite3', [file, query], { encoding: 'utf8' }).trim();

/** Tables (and their indexes, named after them) whose bytes issue 19's rows cost. */
const EXTRA_TABLES = ['product_prices', 'product_references', 'product_feature_blocks'];

/**
 * Storage of a local D1 file per product row (masters + variants): all tables and indexes
 * (dbstat page sizes), and the share of the price, reference and feature-block tables and of
 * the link rows in `media` (their payload: links share the table with files).
 */
export function storageOf(file: string): string {
  const rows = Number(sql(file, 'SELECT count(*) FROM products'));
  const total = Number(sql(file, 'SELECT sum(pgsize) FROM dbstat'));
  const byName = new Map(
    sql(file, 'SELECT name, sum(pgsize) FROM dbstat GROUP BY name')
      .split('\n')
      .map((line) => line.split('|'))
      .map(([name, bytes]) => [name!, Number(bytes)] as const),
  );
  const parts = EXTRA_TABLES.map((table) => {
    const bytes = [...byName].filter(([name]) => name.includes(table)).reduce((sum, [, b]) => sum + b, 0);
    return `${table} ${(bytes / rows).toFixed(0)} B`;
  });
  const links = Number(sql(file, 'SELECT count(*) FROM media WHERE url IS NOT NULL'));
  const linkBytes = Number(
    sql(
      file,
      'SELECT coalesce(sum(length(id) + length(element_id) + length(purpose) + length(file_name) + length(content_type) + length(storage_key) + length(url) + coalesce(length(mime_code), 0) + 12), 0) FROM media WHERE url IS NOT NULL',
    ),
  );
  return `storage: ${rows.toLocaleString('en')} product rows, ${(total / 1e6).toFixed(1)} MB in all tables and indexes = ${(total / rows).toFixed(0)} B per product row; of it per product row: ${parts.join(', ')}, media links ${links.toLocaleString('en')} rows ~${(linkBytes / rows).toFixed(0)} B (column bytes)`;
}

/** The price, reference and link rows of the products of one catalog. */
export function extrasCounts(file: string, catalogId: string): string {
  const count = (query: string) => Number(sql(file, query.replace('?', `'${catalogId.replace(/'/g, "''")}'`)));
  const prices = count(
    'SELECT count(*) FROM product_prices x JOIN products p ON p.id = x.product_id WHERE p.catalog_id = ?',
  );
  const references = count(
    'SELECT count(*) FROM product_references x JOIN products p ON p.id = x.product_id WHERE p.catalog_id = ?',
  );
  const links = count(
    'SELECT count(*) FROM media x JOIN products p ON p.id = x.element_id WHERE x.url IS NOT NULL AND p.catalog_id = ?',
  );
  return `prices ${prices.toLocaleString('en')}, references ${references.toLocaleString('en')}, links ${links.toLocaleString('en')}`;
}

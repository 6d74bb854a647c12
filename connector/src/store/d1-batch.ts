import type { UpsertRecord } from '../../../src/sync/protocol/wire';
import type { BatchToApply } from './shop-store';
import { jsonChunks } from './json-chunks';

/** Columns bound per product row; rows per statement stay under D1's 100 bound parameters. */
const PRODUCT_COLUMNS = 9;
const ROWS_PER_STATEMENT = Math.floor(100 / PRODUCT_COLUMNS);

function upsertProductsSql(rows: number): string {
  const values = Array.from({ length: rows }, (_, r) => {
    const p = (c: number) => `?${r * PRODUCT_COLUMNS + c + 1}`;
    return `(${p(0)}, 1, 1, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  }).join(',\n');
  return `
INSERT INTO products (sku, managed, active, fingerprint, name, status, manufacturer_id, unit_id, tax_id, price, data, created_at, updated_at)
VALUES ${values}
ON CONFLICT (sku) DO UPDATE SET
  active = 1, fingerprint = excluded.fingerprint, name = excluded.name, status = excluded.status,
  manufacturer_id = excluded.manufacturer_id, unit_id = excluded.unit_id, tax_id = excluded.tax_id,
  price = excluded.price, data = excluded.data, updated_at = excluded.updated_at
WHERE products.managed = 1`;
}

const DEACTIVATE_PRODUCTS = `
UPDATE products SET active = 0, updated_at = ?2
WHERE managed = 1 AND sku IN (SELECT value FROM json_each(?1))`;

// A stored image stays stored (its bytes are never fetched again); a failed one referenced
// again gets a fresh URL and a fresh set of tries.
const UPSERT_MEDIA = `
INSERT INTO media (sha256, state, url, content_type, file_name, attempts, queued_at, updated_at)
SELECT m.value ->> '$.sha256', 'pending', m.value ->> '$.url', m.value ->> '$.contentType', m.value ->> '$.fileName', 0, ?2, ?2
FROM json_each(?1) AS m WHERE true
ON CONFLICT (sha256) DO UPDATE SET
  url = excluded.url, content_type = excluded.content_type, file_name = excluded.file_name,
  state = CASE WHEN media.state = 'stored' THEN 'stored' ELSE 'pending' END,
  attempts = CASE WHEN media.state = 'failed' THEN 0 ELSE media.attempts END,
  last_error = CASE WHEN media.state = 'failed' THEN NULL ELSE media.last_error END,
  queued_at = CASE WHEN media.state <> 'stored' AND ?3 THEN excluded.queued_at ELSE media.queued_at END,
  updated_at = excluded.updated_at`;

const INSERT_BATCH = `
INSERT INTO batches (batch_id, body_sha256, answer, received_at, created, updated, deactivated)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`;

/** The product rows' upserts and deactivations of validated records (the reference adapter writes these alone). */
export function productStatements(db: D1Database, records: UpsertRecord[], now: string): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  const rows = records.flatMap((r) => {
    if (r.op === 'deactivate' || !r.product) return [];
    const p = r.product;
    return [[r.sku, r.fingerprint, p.name, p.status, p.manufacturerId, p.unitId, p.taxId, p.price, JSON.stringify(p)]];
  });
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    statements.push(db.prepare(upsertProductsSql(chunk.length)).bind(...chunk.flat()));
  }
  const deactivations = records.filter((r) => r.op === 'deactivate').map((r) => r.sku);
  for (const chunk of jsonChunks(deactivations)) statements.push(db.prepare(DEACTIVATE_PRODUCTS).bind(chunk, now));
  return statements;
}

/** The statements of one upsert batch, in the order D1 runs them inside its transaction. */
export function batchStatements(db: D1Database, batch: BatchToApply): D1PreparedStatement[] {
  const { now } = batch;
  const statements = [
    db
      .prepare(INSERT_BATCH)
      .bind(
        batch.batchId,
        batch.bodySha256,
        batch.answer,
        now,
        batch.counts.created,
        batch.counts.updated,
        batch.counts.deactivated,
      ),
  ];
  statements.push(...productStatements(db, batch.records, now));
  // Images to (re)queue and images only referenced again go in separate statements so that a
  // reference alone never postpones the re-queue sweep of a pending image.
  for (const queue of [true, false]) {
    const rows = batch.media
      .filter((m) => m.queue === queue)
      .map(({ sha256, url, contentType, fileName }) => ({ sha256, url, contentType, fileName }));
    for (const chunk of jsonChunks(rows)) statements.push(db.prepare(UPSERT_MEDIA).bind(chunk, now, queue ? 1 : 0));
  }
  return statements;
}

import type { BatchToApply } from './shop-store';
import { jsonChunks, jsonTextChunks, MAX_JSON_PARAM_CHARS } from './json-chunks';

/**
 * Creates and updates of a batch: the rows travel as JSON arrays in one parameter read with
 * `json_each` (`jsonChunks`), so 1000 records take a few statements instead of one per 11 rows
 * (D1's 100 bound parameters). `data` is the product's JSON text, stored as sent.
 */
const PRODUCT_UPSERT_HEAD = `
INSERT INTO products (sku, managed, active, fingerprint, name, status, manufacturer_id, unit_id, tax_id, price, data, created_at, updated_at)`;
const PRODUCT_UPSERT_TAIL = `
ON CONFLICT (sku) DO UPDATE SET
  active = 1, fingerprint = excluded.fingerprint, name = excluded.name, status = excluded.status,
  manufacturer_id = excluded.manufacturer_id, unit_id = excluded.unit_id, tax_id = excluded.tax_id,
  price = excluded.price, data = excluded.data, updated_at = excluded.updated_at
WHERE products.managed = 1`;
const UPSERT_PRODUCTS = `${PRODUCT_UPSERT_HEAD}
SELECT r.value ->> 0, 1, 1, r.value ->> 1, r.value ->> 2, r.value ->> 3, r.value ->> 4, r.value ->> 5, r.value ->> 6,
  r.value ->> 7, r.value ->> 8, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM json_each(?1) AS r WHERE true${PRODUCT_UPSERT_TAIL}`;
/**
 * One product whose row would not fit a JSON parameter (its `data` escaped inside the array
 * could pass D1's 2 MB per value): bound column by column, `data` as its own value.
 */
const UPSERT_PRODUCT = `${PRODUCT_UPSERT_HEAD}
VALUES (?1, 1, 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))${PRODUCT_UPSERT_TAIL}`;
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
  const rows = batch.records.flatMap((r) => {
    if (r.op === 'deactivate' || !r.product) return [];
    const p = r.product;
    return [[r.sku, r.fingerprint, p.name, p.status, p.manufacturerId, p.unitId, p.taxId, p.price, JSON.stringify(p)]];
  });
  const fitting: string[] = [];
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (text.length <= MAX_JSON_PARAM_CHARS) fitting.push(text);
    else statements.push(db.prepare(UPSERT_PRODUCT).bind(...row));
  }
  for (const chunk of jsonTextChunks(fitting)) statements.push(db.prepare(UPSERT_PRODUCTS).bind(chunk));
  const deactivations = batch.records.filter((r) => r.op === 'deactivate').map((r) => r.sku);
  for (const chunk of jsonChunks(deactivations)) statements.push(db.prepare(DEACTIVATE_PRODUCTS).bind(chunk, now));
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

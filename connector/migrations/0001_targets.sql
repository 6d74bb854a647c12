-- Real shops behind the connector (docs/shops.md): one target per signing key, and per target a
-- mirror of what the connector wrote there. Keys without a target keep writing into the
-- reference store of 0000_shop_store.sql.

-- The shop a key writes into. Credentials are AES-GCM ciphertext under a key derived from that
-- signing key's secret (connector/src/targets/credentials.ts); no endpoint returns them.
CREATE TABLE targets (
  key_id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL,
  url TEXT NOT NULL,
  credentials_ciphertext TEXT NOT NULL,
  credentials_iv TEXT NOT NULL,
  -- TargetMapping as JSON, defaults filled.
  mapping TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Per key and SKU: the fingerprint last written, active or not, the target's ids (TargetIds
-- JSON) and the product as last written (what a later write must remove). GET /inventory reads
-- it, so the PIM's diff sees what the shop really took. sku uses the BINARY collation: ORDER BY
-- sku is UTF-8 byte order (compareSkus).
CREATE TABLE target_products (
  key_id TEXT NOT NULL,
  sku TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  active INTEGER NOT NULL,
  ids TEXT,
  product TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (key_id, sku)
);
-- Covers GET /inventory (keyset pages by sku and the count, no sort) and the /status counts
-- without touching the rows, as products_inventory_idx does for the reference store.
CREATE INDEX target_products_inventory_idx ON target_products (key_id, active, sku, fingerprint);

-- Batches against a target, scoped by key: two PIMs (or a PIM and a test) may pick the same
-- batchId for different shops. `answer` is NULL while the batch is under way; its records'
-- outcomes so far are in target_batch_records, so a retry after a crash resumes and answers
-- the whole batch.
CREATE TABLE target_batches (
  key_id TEXT NOT NULL,
  batch_id TEXT NOT NULL,
  body_sha256 TEXT NOT NULL,
  answer TEXT,
  received_at TEXT NOT NULL,
  created INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL DEFAULT 0,
  deactivated INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, batch_id)
);
CREATE INDEX target_batches_received_idx ON target_batches (key_id, received_at, batch_id);

-- The final outcome of each record of a batch under way (RecordOutcome without ids, as JSON),
-- committed in the same D1 batch as the record's mirror row.
CREATE TABLE target_batch_records (
  key_id TEXT NOT NULL,
  batch_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  PRIMARY KEY (key_id, batch_id, idx)
);

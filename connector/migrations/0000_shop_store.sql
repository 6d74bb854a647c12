-- The connector's reference shop store (connector/README.md, "The store adapter").
-- Lookup tables the shop owns; the PIM maps its manufacturers, units and taxes onto these ids.
CREATE TABLE manufacturers (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL
);
CREATE TABLE units (
  id TEXT PRIMARY KEY NOT NULL,
  code TEXT NOT NULL UNIQUE
);
CREATE TABLE taxes (
  id TEXT PRIMARY KEY NOT NULL,
  code TEXT NOT NULL UNIQUE,
  rate REAL NOT NULL
);

-- managed = 1: created by the PIM (listed in /inventory, written by /upsert);
-- managed = 0: the shop's own product, never listed or touched by the sync.
-- sku uses SQLite's BINARY collation: ORDER BY sku is UTF-8 byte order (compareSkus).
CREATE TABLE products (
  sku TEXT PRIMARY KEY NOT NULL,
  managed INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1,
  fingerprint TEXT,
  name TEXT,
  status TEXT NOT NULL DEFAULT 'active',
  manufacturer_id TEXT,
  unit_id TEXT,
  tax_id TEXT,
  price TEXT,
  -- The whole product as the PIM sent it (values, classification, categories, media, variants).
  data TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- Covers GET /inventory (keyset pages by sku and the count, no sort) and the /status counts
-- without touching the rows.
CREATE INDEX products_inventory_idx ON products (managed, active, sku, fingerprint);

-- One row per image content hash: pending (queued), stored (in R2 at media/<sha256>), failed.
CREATE TABLE media (
  sha256 TEXT PRIMARY KEY NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'stored', 'failed')),
  url TEXT NOT NULL,
  content_type TEXT NOT NULL,
  file_name TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  size INTEGER,
  queued_at TEXT NOT NULL,
  stored_at TEXT,
  updated_at TEXT NOT NULL
);
CREATE INDEX media_state_idx ON media (state, queued_at);

-- Committed upsert batches: the answer is replayed byte for byte for a retried batchId.
CREATE TABLE batches (
  batch_id TEXT PRIMARY KEY NOT NULL,
  body_sha256 TEXT NOT NULL,
  answer TEXT NOT NULL,
  received_at TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  deactivated INTEGER NOT NULL
);
CREATE INDEX batches_received_idx ON batches (received_at, batch_id);

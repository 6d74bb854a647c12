-- References by manufacturer number (docs/shops.md "References by manufacturer number"), second
-- step. 0003 indexed only a master's own number (`target_products_mpn_idx`), so a reference to a
-- *variant's* number found its product only among the products of the same write. Per key:
--   target_mpns            which active product carries a number, on the master or a variant;
--   target_mpn_references  which active product refers to a number (`targetKind: 'mpn'`).
-- Both are kept by triggers on target_products, as target_media is (0004), so the batch commit,
-- deactivations and the clearing of a key's mirror keep them in step in the same transaction.
-- When the carriers of a number change (a product gains or loses it, is deactivated or
-- removed), the products referring to it get a fingerprint no PIM record has, so the PIM's
-- next diff sends them again and the adapter resolves the number anew ("follows a number that
-- moves"); the rows written in that statement itself are left alone.
CREATE TABLE target_mpns (
  key_id TEXT NOT NULL,
  mpn TEXT NOT NULL,
  sku TEXT NOT NULL,
  PRIMARY KEY (key_id, mpn, sku)
) WITHOUT ROWID;
-- The triggers delete a row's entries by SKU.
CREATE INDEX target_mpns_sku_idx ON target_mpns (key_id, sku);

CREATE TABLE target_mpn_references (
  key_id TEXT NOT NULL,
  mpn TEXT NOT NULL,
  sku TEXT NOT NULL,
  PRIMARY KEY (key_id, mpn, sku)
) WITHOUT ROWID;
CREATE INDEX target_mpn_references_sku_idx ON target_mpn_references (key_id, sku);

-- The rows written before this migration, filled before the triggers exist (no product is
-- marked for sending again by the fill).
INSERT OR IGNORE INTO target_mpns (key_id, mpn, sku)
  SELECT key_id, json_extract(product, '$.manufacturerPid'), sku FROM target_products
  WHERE active = 1 AND product IS NOT NULL AND json_extract(product, '$.manufacturerPid') <> '';
INSERT OR IGNORE INTO target_mpns (key_id, mpn, sku)
  SELECT p.key_id, json_extract(v.value, '$.manufacturerPid'), p.sku FROM target_products p, json_each(p.product, '$.variants') v
  WHERE p.active = 1 AND p.product IS NOT NULL AND json_extract(v.value, '$.manufacturerPid') <> '';
INSERT OR IGNORE INTO target_mpn_references (key_id, mpn, sku)
  SELECT p.key_id, json_extract(r.value, '$.sku'), p.sku FROM target_products p, json_each(p.product, '$.references') r
  WHERE p.active = 1 AND p.product IS NOT NULL AND json_extract(r.value, '$.targetKind') = 'mpn';

CREATE TRIGGER target_numbers_insert AFTER INSERT ON target_products
WHEN NEW.active = 1 AND NEW.product IS NOT NULL
BEGIN
  INSERT OR IGNORE INTO target_mpns (key_id, mpn, sku)
    SELECT NEW.key_id, n.mpn, NEW.sku FROM
      (SELECT json_extract(NEW.product, '$.manufacturerPid') AS mpn
       UNION SELECT json_extract(v.value, '$.manufacturerPid') FROM json_each(NEW.product, '$.variants') v) n
    WHERE n.mpn IS NOT NULL AND n.mpn <> '';
  INSERT OR IGNORE INTO target_mpn_references (key_id, mpn, sku)
    SELECT DISTINCT NEW.key_id, json_extract(r.value, '$.sku'), NEW.sku FROM json_each(NEW.product, '$.references') r
    WHERE json_extract(r.value, '$.targetKind') = 'mpn';
END;

-- Only the numbers the row lost are deleted and only those it gained inserted, so rewriting a
-- product with the same numbers moves nothing. (Inside a trigger the outer statement's conflict
-- policy wins over OR IGNORE, so the inserts avoid conflicts themselves: NOT EXISTS, DISTINCT.)
CREATE TRIGGER target_numbers_update AFTER UPDATE OF product, active ON target_products
BEGIN
  DELETE FROM target_mpns WHERE key_id = OLD.key_id AND sku = OLD.sku
    AND (NEW.active = 0 OR NEW.product IS NULL OR mpn NOT IN
      (SELECT n.mpn FROM
        (SELECT json_extract(NEW.product, '$.manufacturerPid') AS mpn
         UNION SELECT json_extract(v.value, '$.manufacturerPid') FROM json_each(NEW.product, '$.variants') v) n
       WHERE n.mpn IS NOT NULL));
  INSERT OR IGNORE INTO target_mpns (key_id, mpn, sku)
    SELECT NEW.key_id, n.mpn, NEW.sku FROM
      (SELECT json_extract(NEW.product, '$.manufacturerPid') AS mpn
       UNION SELECT json_extract(v.value, '$.manufacturerPid') FROM json_each(NEW.product, '$.variants') v) n
    WHERE NEW.active = 1 AND NEW.product IS NOT NULL AND n.mpn IS NOT NULL AND n.mpn <> ''
      AND NOT EXISTS (SELECT 1 FROM target_mpns m WHERE m.key_id = NEW.key_id AND m.mpn = n.mpn AND m.sku = NEW.sku);
  DELETE FROM target_mpn_references WHERE key_id = OLD.key_id AND sku = OLD.sku;
  INSERT OR IGNORE INTO target_mpn_references (key_id, mpn, sku)
    SELECT DISTINCT NEW.key_id, json_extract(r.value, '$.sku'), NEW.sku FROM json_each(NEW.product, '$.references') r
    WHERE NEW.active = 1 AND NEW.product IS NOT NULL AND json_extract(r.value, '$.targetKind') = 'mpn';
END;

CREATE TRIGGER target_numbers_delete AFTER DELETE ON target_products
BEGIN
  DELETE FROM target_mpns WHERE key_id = OLD.key_id AND sku = OLD.sku;
  DELETE FROM target_mpn_references WHERE key_id = OLD.key_id AND sku = OLD.sku;
END;

-- A number gained or lost: the products referring to it (other than the carrier written now)
-- are sent again by the next run. The marker keeps the fingerprint it replaced after a prefix
-- no PIM fingerprint has; it is set once. The rows are picked by rowid from the number's
-- references (a seek per referring row): `key_id = ? AND sku IN (...)` made SQLite walk the
-- key's whole inventory index per number (bench/connector-mirror.ts found it).
CREATE TRIGGER target_mpns_gained AFTER INSERT ON target_mpns
BEGIN
  UPDATE target_products SET fingerprint = 'mpn-moved:' || fingerprint
  WHERE rowid IN (SELECT p.rowid FROM target_mpn_references r
      JOIN target_products p ON p.key_id = r.key_id AND p.sku = r.sku
      WHERE r.key_id = NEW.key_id AND r.mpn = NEW.mpn AND r.sku <> NEW.sku)
    AND fingerprint NOT LIKE 'mpn-moved:%';
END;

CREATE TRIGGER target_mpns_lost AFTER DELETE ON target_mpns
BEGIN
  UPDATE target_products SET fingerprint = 'mpn-moved:' || fingerprint
  WHERE rowid IN (SELECT p.rowid FROM target_mpn_references r
      JOIN target_products p ON p.key_id = r.key_id AND p.sku = r.sku
      WHERE r.key_id = OLD.key_id AND r.mpn = OLD.mpn AND r.sku <> OLD.sku)
    AND fingerprint NOT LIKE 'mpn-moved:%';
END;

-- Replaced by target_mpns (a seek of its primary key).
DROP INDEX target_products_mpn_idx;

-- Which of a key's products show an image (content hash), from the mirror's ids (TargetIds.media):
-- an adapter whose shop shares one asset or file between every product with the same bytes
-- (Vendure) deletes the asset of an image a product no longer shows only when no other product
-- of the mirror shows it (WriteContext.mediaShownElsewhere, docs/shops.md "Vendure"). Kept by
-- triggers on target_products, so every write of a mirror row (the batch commit, a deactivation,
-- the clearing of a key's mirror) keeps it in step in the same transaction.
CREATE TABLE target_media (
  key_id TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  sku TEXT NOT NULL,
  PRIMARY KEY (key_id, sha256, sku)
) WITHOUT ROWID;
-- The triggers delete a row's entries by SKU.
CREATE INDEX target_media_sku_idx ON target_media (key_id, sku);

CREATE TRIGGER target_media_insert AFTER INSERT ON target_products
WHEN NEW.ids IS NOT NULL AND json_type(NEW.ids, '$.media') = 'object'
BEGIN
  INSERT OR IGNORE INTO target_media (key_id, sha256, sku)
    SELECT NEW.key_id, m.key, NEW.sku FROM json_each(NEW.ids, '$.media') m;
END;

CREATE TRIGGER target_media_update AFTER UPDATE OF ids ON target_products
BEGIN
  DELETE FROM target_media WHERE key_id = OLD.key_id AND sku = OLD.sku;
  INSERT OR IGNORE INTO target_media (key_id, sha256, sku)
    SELECT NEW.key_id, m.key, NEW.sku FROM json_each(NEW.ids, '$.media') m
    WHERE NEW.ids IS NOT NULL AND json_type(NEW.ids, '$.media') = 'object';
END;

CREATE TRIGGER target_media_delete AFTER DELETE ON target_products
BEGIN
  DELETE FROM target_media WHERE key_id = OLD.key_id AND sku = OLD.sku;
END;

-- The rows written before this migration.
INSERT OR IGNORE INTO target_media (key_id, sha256, sku)
  SELECT p.key_id, m.key, p.sku FROM target_products p, json_each(p.ids, '$.media') m
  WHERE p.ids IS NOT NULL AND json_type(p.ids, '$.media') = 'object';

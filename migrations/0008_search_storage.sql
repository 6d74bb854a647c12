-- Variant identifiers in the full-text index and leaner storage (issue 10; docs/search.md).
--
-- 1. Variants join products_fts with their SKU, manufacturer part number and GTIN (name and
--    keywords stay NULL for them): a search for a variant's identifier lists its master. The
--    masters' documents are kept as they are; the triggers below index variants the same way,
--    and every 'delete' passes exactly the values its document was indexed with.
DROP TRIGGER `products_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `products_fts_delete`;
--> statement-breakpoint
DROP TRIGGER `products_fts_update`;
--> statement-breakpoint
INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
  SELECT `rowid`, `sku`, NULL, `manufacturer_pid`, `gtin`, NULL FROM `products` WHERE `parent_id` IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, iif(NEW.`parent_id` IS NULL, NEW.`name`, NULL), NEW.`manufacturer_pid`, NEW.`gtin`,
      iif(NEW.`parent_id` IS NULL, NEW.`keywords`, NULL));
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, iif(OLD.`parent_id` IS NULL, OLD.`name`, NULL), OLD.`manufacturer_pid`, OLD.`gtin`,
      iif(OLD.`parent_id` IS NULL, OLD.`keywords`, NULL));
END;
--> statement-breakpoint
-- A variant's name or keywords are not indexed: writing them alone does not touch the index.
CREATE TRIGGER `products_fts_update` AFTER UPDATE OF `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`, `parent_id` ON `products`
  WHEN OLD.`parent_id` IS NULL OR NEW.`parent_id` IS NULL OR OLD.`sku` IS NOT NEW.`sku`
    OR OLD.`manufacturer_pid` IS NOT NEW.`manufacturer_pid` OR OLD.`gtin` IS NOT NEW.`gtin` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, iif(OLD.`parent_id` IS NULL, OLD.`name`, NULL), OLD.`manufacturer_pid`, OLD.`gtin`,
      iif(OLD.`parent_id` IS NULL, OLD.`keywords`, NULL));
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, iif(NEW.`parent_id` IS NULL, NEW.`name`, NULL), NEW.`manufacturer_pid`, NEW.`gtin`,
      iif(NEW.`parent_id` IS NULL, NEW.`keywords`, NULL));
END;
--> statement-breakpoint
-- 2. A second copy of the masters' SKU index (migration 0002): the sync's keyset walk in SKU
--    byte order reads products_catalog_sku_uq instead (the same order; a master's variants sit
--    next to it and are skipped by the `parent_id IS NULL` condition).
DROP INDEX IF EXISTS `products_catalog_master_sku_idx`;
--> statement-breakpoint
-- 3. media WITHOUT ROWID: keyed by its id, the table is the primary-key index (no second copy
--    of every id). Nothing references media rows by rowid or foreign key.
CREATE TABLE `media_new` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`element_id` text NOT NULL,
	`purpose` text DEFAULT 'normal' NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`storage_key` text NOT NULL,
	`description` text,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`sha256` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `media_new` (`id`, `company_id`, `element_id`, `purpose`, `file_name`, `content_type`, `size`, `storage_key`, `description`, `sort_order`, `created_at`, `sha256`)
  SELECT `id`, `company_id`, `element_id`, `purpose`, `file_name`, `content_type`, `size`, `storage_key`, `description`, `sort_order`, `created_at`, `sha256` FROM `media` ORDER BY `id`;
--> statement-breakpoint
DROP TABLE `media`;
--> statement-breakpoint
ALTER TABLE `media_new` RENAME TO `media`;
--> statement-breakpoint
CREATE INDEX `media_element_idx` ON `media` (`element_id`, `sort_order`);

-- Search heads (docs/search.md, "Broad search by name"): for a broad search (a word in more
-- than 5,000 products) sorted by name, the first hits of one phrase in name order, so the first
-- pages read those instead of walking the name index past every product without the word.
--
-- search_head_bounds: one row per (catalog, phrase) that has a head; (name, product_id) is its
-- bound. search_heads then holds exactly the masters of the catalog with a name whose own FTS
-- document matches the phrase and whose (name COLLATE NOCASE, id) is at most the bound. The
-- product list builds a head on the first such search (one batch: the walk, its rows, the bound);
-- the triggers below keep every head exact on every write of a master, in the same transaction.
CREATE TABLE `search_head_bounds` (
	`catalog_id` text NOT NULL,
	`phrase` text NOT NULL,
	`name` text NOT NULL COLLATE NOCASE,
	`product_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`catalog_id`, `phrase`),
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `search_heads` (
	`catalog_id` text NOT NULL,
	`phrase` text NOT NULL,
	`name` text NOT NULL COLLATE NOCASE,
	`product_id` text NOT NULL,
	PRIMARY KEY(`catalog_id`, `phrase`, `name`, `product_id`),
	FOREIGN KEY (`catalog_id`, `phrase`) REFERENCES `search_head_bounds`(`catalog_id`, `phrase`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- The FTS triggers of migration 0008, each followed by the heads' upkeep (after the index write,
-- so the phrase check sees the new document). A master enters a head when its (name, id) is
-- within the bound and its document matches the phrase: one FTS seek per head of its catalog,
-- only for products that sort before a bound.
DROP TRIGGER `products_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `products_fts_delete`;
--> statement-breakpoint
DROP TRIGGER `products_fts_update`;
--> statement-breakpoint
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, iif(NEW.`parent_id` IS NULL, NEW.`name`, NULL), NEW.`manufacturer_pid`, NEW.`gtin`,
      iif(NEW.`parent_id` IS NULL, NEW.`keywords`, NULL));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, NEW.`name`, NEW.`id` FROM `search_head_bounds` b
    WHERE NEW.`parent_id` IS NULL AND NEW.`name` IS NOT NULL AND b.`catalog_id` = NEW.`catalog_id`
      AND (NEW.`name` COLLATE NOCASE, NEW.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = NEW.`rowid`);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, iif(OLD.`parent_id` IS NULL, OLD.`name`, NULL), OLD.`manufacturer_pid`, OLD.`gtin`,
      iif(OLD.`parent_id` IS NULL, OLD.`keywords`, NULL));
  DELETE FROM `search_heads` WHERE OLD.`parent_id` IS NULL AND `catalog_id` = OLD.`catalog_id`
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` = OLD.`catalog_id`)
    AND `name` = OLD.`name` AND `product_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_update` AFTER UPDATE OF `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`, `parent_id` ON `products`
  WHEN OLD.`parent_id` IS NULL OR NEW.`parent_id` IS NULL OR OLD.`sku` IS NOT NEW.`sku`
    OR OLD.`manufacturer_pid` IS NOT NEW.`manufacturer_pid` OR OLD.`gtin` IS NOT NEW.`gtin` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, iif(OLD.`parent_id` IS NULL, OLD.`name`, NULL), OLD.`manufacturer_pid`, OLD.`gtin`,
      iif(OLD.`parent_id` IS NULL, OLD.`keywords`, NULL));
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, iif(NEW.`parent_id` IS NULL, NEW.`name`, NULL), NEW.`manufacturer_pid`, NEW.`gtin`,
      iif(NEW.`parent_id` IS NULL, NEW.`keywords`, NULL));
  DELETE FROM `search_heads` WHERE OLD.`parent_id` IS NULL AND `catalog_id` = OLD.`catalog_id`
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` = OLD.`catalog_id`)
    AND `name` = OLD.`name` AND `product_id` = OLD.`id`;
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, NEW.`name`, NEW.`id` FROM `search_head_bounds` b
    WHERE NEW.`parent_id` IS NULL AND NEW.`name` IS NOT NULL AND b.`catalog_id` = NEW.`catalog_id`
      AND (NEW.`name` COLLATE NOCASE, NEW.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = NEW.`rowid`);
END;

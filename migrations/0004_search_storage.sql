-- Full-text search, list indexes and lean storage (issue 10 parts 4 and 5; docs/search.md).
--
-- 1. products_fts: an FTS5 index over the master products' SKU, name, manufacturer part number,
--    GTIN and keywords. External content (the text lives only in `products`), kept current by
--    triggers on `products`, so every writer (REST, MCP, import, sync, mass edit, cascades) keeps
--    it right in its own transaction without knowing about it. Variants are not indexed.
--    Never run the FTS5 'rebuild' command on it: that would index variants too; re-populate with
--    the 'delete-all' command and the INSERT ... SELECT below instead.
CREATE VIRTUAL TABLE `products_fts` USING fts5(
  `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`,
  content='products', content_rowid='rowid',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
--> statement-breakpoint
INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
  SELECT `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords` FROM `products` WHERE `parent_id` IS NULL;
--> statement-breakpoint
-- Ranking: bm25 with column weights (SKU and identifiers over name over keywords).
INSERT INTO `products_fts` (`products_fts`, `rank`) VALUES ('rank', 'bm25(10.0, 4.0, 8.0, 8.0, 1.0)');
--> statement-breakpoint
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products` WHEN NEW.`parent_id` IS NULL BEGIN
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, NEW.`name`, NEW.`manufacturer_pid`, NEW.`gtin`, NEW.`keywords`);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_delete` AFTER DELETE ON `products` WHEN OLD.`parent_id` IS NULL BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, OLD.`name`, OLD.`manufacturer_pid`, OLD.`gtin`, OLD.`keywords`);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_update` AFTER UPDATE OF `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`, `parent_id` ON `products` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT 'delete', OLD.`rowid`, OLD.`sku`, OLD.`name`, OLD.`manufacturer_pid`, OLD.`gtin`, OLD.`keywords` WHERE OLD.`parent_id` IS NULL;
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT NEW.`rowid`, NEW.`sku`, NEW.`name`, NEW.`manufacturer_pid`, NEW.`gtin`, NEW.`keywords` WHERE NEW.`parent_id` IS NULL;
END;
--> statement-breakpoint
-- 2. Indexes for the product list's sort orders (masters only; SKU order uses products_catalog_sku_uq).
DROP INDEX `products_catalog_name_idx`;
--> statement-breakpoint
CREATE INDEX `products_list_name_idx` ON `products` (`catalog_id`, `name` COLLATE NOCASE, `id`) WHERE `parent_id` IS NULL;
--> statement-breakpoint
CREATE INDEX `products_list_updated_idx` ON `products` (`catalog_id`, `updated_at`, `id`) WHERE `parent_id` IS NULL;
--> statement-breakpoint
-- 3. Indexes no query uses (every product, media and attribute-value query names its catalog,
--    element or primary key; company-wide cascades are not an operation of the service).
DROP INDEX `products_company_idx`;
--> statement-breakpoint
DROP INDEX `products_company_sku_idx`;
--> statement-breakpoint
DROP INDEX `media_company_idx`;
--> statement-breakpoint
-- Masters-only and variants-only copies of two product indexes: every query using them names
-- `parent_id IS NULL` (exports, lists) or `parent_id = ?` (variants of a master).
DROP INDEX `products_catalog_id_idx`;
--> statement-breakpoint
CREATE INDEX `products_catalog_master_id_idx` ON `products` (`catalog_id`, `id`) WHERE `parent_id` IS NULL;
--> statement-breakpoint
DROP INDEX `products_parent_idx`;
--> statement-breakpoint
CREATE INDEX `products_parent_idx` ON `products` (`parent_id`) WHERE `parent_id` IS NOT NULL;
--> statement-breakpoint
-- 4. Composite-key tables WITHOUT ROWID: the primary key is the table, not a second copy of
--    every row. Each: create the new table, copy in key order (full pages), drop the old, rename, recreate
--    its indexes.
CREATE TABLE `attribute_values_new` (
	`element_id` text NOT NULL,
	`attribute_id` text NOT NULL,
	`company_id` text NOT NULL,
	`value` text NOT NULL,
	`number_value` real,
	`number_value_to` real,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`element_id`, `attribute_id`),
	FOREIGN KEY (`attribute_id`) REFERENCES `attributes`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `attribute_values_new` SELECT `element_id`, `attribute_id`, `company_id`, `value`, `number_value`, `number_value_to`, `updated_at` FROM `attribute_values` ORDER BY `element_id`, `attribute_id`;
--> statement-breakpoint
DROP TABLE `attribute_values`;
--> statement-breakpoint
ALTER TABLE `attribute_values_new` RENAME TO `attribute_values`;
--> statement-breakpoint
CREATE TABLE `classification_link_features_new` (
	`link_id` text NOT NULL,
	`group` text NOT NULL,
	`code` text NOT NULL,
	`value` text NOT NULL,
	`unit` text,
	PRIMARY KEY(`link_id`, `group`, `code`),
	FOREIGN KEY (`link_id`) REFERENCES `classification_links`(`link_id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `classification_link_features_new` SELECT `link_id`, `group`, `code`, `value`, `unit` FROM `classification_link_features` ORDER BY `link_id`, `group`, `code`;
--> statement-breakpoint
DROP TABLE `classification_link_features`;
--> statement-breakpoint
ALTER TABLE `classification_link_features_new` RENAME TO `classification_link_features`;
--> statement-breakpoint
CREATE TABLE `classification_link_classes_new` (
	`link_id` text NOT NULL,
	`group` text NOT NULL,
	`system` text NOT NULL,
	`code` text NOT NULL,
	PRIMARY KEY(`link_id`, `group`),
	FOREIGN KEY (`link_id`) REFERENCES `classification_links`(`link_id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `classification_link_classes_new` SELECT `link_id`, `group`, `system`, `code` FROM `classification_link_classes` ORDER BY `link_id`, `group`;
--> statement-breakpoint
DROP TABLE `classification_link_classes`;
--> statement-breakpoint
ALTER TABLE `classification_link_classes_new` RENAME TO `classification_link_classes`;
--> statement-breakpoint
CREATE TABLE `product_categories_new` (
	`product_id` text NOT NULL,
	`category_id` text NOT NULL,
	`company_id` text NOT NULL,
	PRIMARY KEY(`product_id`, `category_id`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `product_categories_new` SELECT `product_id`, `category_id`, `company_id` FROM `product_categories` ORDER BY `product_id`, `category_id`;
--> statement-breakpoint
DROP TABLE `product_categories`;
--> statement-breakpoint
ALTER TABLE `product_categories_new` RENAME TO `product_categories`;
--> statement-breakpoint
CREATE INDEX `product_categories_category_idx` ON `product_categories` (`category_id`);
--> statement-breakpoint
CREATE TABLE `memberships_new` (
	`user_id` text NOT NULL,
	`company_id` text NOT NULL,
	`role` text NOT NULL,
	`default_department_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`user_id`, `company_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`default_department_id`) REFERENCES `departments`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `memberships_new` SELECT `user_id`, `company_id`, `role`, `default_department_id`, `created_at` FROM `memberships` ORDER BY `user_id`, `company_id`;
--> statement-breakpoint
DROP TABLE `memberships`;
--> statement-breakpoint
ALTER TABLE `memberships_new` RENAME TO `memberships`;
--> statement-breakpoint
CREATE INDEX `memberships_company_idx` ON `memberships` (`company_id`);

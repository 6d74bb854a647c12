-- Leaner child tables (issue 10 part 5; docs/search.md "Storage").
--
-- 1. attribute_values without `company_id` and `updated_at`: the tenant is the attribute's
--    (`attributes.company_id`, joined by every read), and the column `updated_at` was written
--    but never read (a value's changes are in history_versions).
-- 2. classification_links gets an integer key `id` (its rowid, kept as it is): the link's
--    classes and features reference it instead of the 36-character `link_id`, which stays the
--    link's public id (unique). `company_id` stays: ListClassifications lists a company's links.
-- 3. product_categories without `company_id`: the tenant is the product's and the category's.
-- 4. media without `company_id`: the tenant is its element's (product, category or catalog).
--
-- Each table is renamed away, re-created under its name, filled in key order (full pages),
-- and the old one dropped; then its indexes and triggers are re-created. Children are dropped
-- before their parent, so no cascade ever fires.
ALTER TABLE `classification_link_features` RENAME TO `classification_link_features_old`;
--> statement-breakpoint
ALTER TABLE `classification_link_classes` RENAME TO `classification_link_classes_old`;
--> statement-breakpoint
ALTER TABLE `classification_links` RENAME TO `classification_links_old`;
--> statement-breakpoint
CREATE TABLE `classification_links` (
	`id` integer PRIMARY KEY NOT NULL,
	`link_id` text NOT NULL,
	`company_id` text NOT NULL,
	`element_id` text NOT NULL,
	`name` text NOT NULL,
	`classification_groups` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `classification_links` (`id`, `link_id`, `company_id`, `element_id`, `name`, `classification_groups`, `created_at`, `updated_at`)
  SELECT `rowid`, `link_id`, `company_id`, `element_id`, `name`, `classification_groups`, `created_at`, `updated_at`
  FROM `classification_links_old` ORDER BY `rowid`;
--> statement-breakpoint
CREATE TABLE `classification_link_classes` (
	`link_id` integer NOT NULL,
	`group` text NOT NULL,
	`system` text NOT NULL,
	`code` text NOT NULL,
	PRIMARY KEY(`link_id`, `group`),
	FOREIGN KEY (`link_id`) REFERENCES `classification_links`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `classification_link_classes` (`link_id`, `group`, `system`, `code`)
  SELECT l.`rowid`, c.`group`, c.`system`, c.`code`
  FROM `classification_link_classes_old` c JOIN `classification_links_old` l ON l.`link_id` = c.`link_id`
  ORDER BY l.`rowid`, c.`group`;
--> statement-breakpoint
CREATE TABLE `classification_link_features` (
	`link_id` integer NOT NULL,
	`group` text NOT NULL,
	`code` text NOT NULL,
	`value` text NOT NULL,
	`unit` text,
	PRIMARY KEY(`link_id`, `group`, `code`),
	FOREIGN KEY (`link_id`) REFERENCES `classification_links`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `classification_link_features` (`link_id`, `group`, `code`, `value`, `unit`)
  SELECT l.`rowid`, f.`group`, f.`code`, f.`value`, f.`unit`
  FROM `classification_link_features_old` f JOIN `classification_links_old` l ON l.`link_id` = f.`link_id`
  ORDER BY l.`rowid`, f.`group`, f.`code`;
--> statement-breakpoint
DROP TABLE `classification_link_features_old`;
--> statement-breakpoint
DROP TABLE `classification_link_classes_old`;
--> statement-breakpoint
DROP TABLE `classification_links_old`;
--> statement-breakpoint
CREATE UNIQUE INDEX `classification_links_link_id_unique` ON `classification_links` (`link_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `classification_links_element_uq` ON `classification_links` (`element_id`);
--> statement-breakpoint
CREATE INDEX `classification_links_company_idx` ON `classification_links` (`company_id`, `link_id`);
--> statement-breakpoint
ALTER TABLE `attribute_values` RENAME TO `attribute_values_old`;
--> statement-breakpoint
CREATE TABLE `attribute_values` (
	`element_id` text NOT NULL,
	`attribute_id` text NOT NULL,
	`value` text NOT NULL,
	`number_value` real,
	`number_value_to` real,
	PRIMARY KEY(`element_id`, `attribute_id`),
	FOREIGN KEY (`attribute_id`) REFERENCES `attributes`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `attribute_values` (`element_id`, `attribute_id`, `value`, `number_value`, `number_value_to`)
  SELECT `element_id`, `attribute_id`, `value`, `number_value`, `number_value_to` FROM `attribute_values_old`
  ORDER BY `element_id`, `attribute_id`;
--> statement-breakpoint
DROP TABLE `attribute_values_old`;
--> statement-breakpoint
ALTER TABLE `product_categories` RENAME TO `product_categories_old`;
--> statement-breakpoint
DROP TRIGGER `product_categories_count_insert`;
--> statement-breakpoint
DROP TRIGGER `product_categories_count_delete`;
--> statement-breakpoint
DROP TRIGGER `product_categories_count_update`;
--> statement-breakpoint
DROP INDEX `product_categories_category_idx`;
--> statement-breakpoint
CREATE TABLE `product_categories` (
	`product_id` text NOT NULL,
	`category_id` text NOT NULL,
	PRIMARY KEY(`product_id`, `category_id`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `product_categories` (`product_id`, `category_id`)
  SELECT `product_id`, `category_id` FROM `product_categories_old` ORDER BY `product_id`, `category_id`;
--> statement-breakpoint
DROP TABLE `product_categories_old`;
--> statement-breakpoint
CREATE INDEX `product_categories_category_idx` ON `product_categories` (`category_id`);
--> statement-breakpoint
-- categories.product_count (migration 0007) is kept by these triggers; the copy above ran
-- without them, so the counts are exactly as before.
CREATE TRIGGER `product_categories_count_insert` AFTER INSERT ON `product_categories` BEGIN
  UPDATE `categories` SET `product_count` = `product_count` + 1 WHERE `id` = NEW.`category_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_count_delete` AFTER DELETE ON `product_categories` BEGIN
  UPDATE `categories` SET `product_count` = max(0, `product_count` - 1) WHERE `id` = OLD.`category_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_count_update` AFTER UPDATE OF `category_id` ON `product_categories` BEGIN
  UPDATE `categories` SET `product_count` = max(0, `product_count` - 1) WHERE `id` = OLD.`category_id`;
  UPDATE `categories` SET `product_count` = `product_count` + 1 WHERE `id` = NEW.`category_id`;
END;
--> statement-breakpoint
ALTER TABLE `media` RENAME TO `media_old`;
--> statement-breakpoint
DROP INDEX `media_element_idx`;
--> statement-breakpoint
CREATE TABLE `media` (
	`id` text PRIMARY KEY NOT NULL,
	`element_id` text NOT NULL,
	`purpose` text DEFAULT 'normal' NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`storage_key` text NOT NULL,
	`description` text,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`sha256` text
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `media` (`id`, `element_id`, `purpose`, `file_name`, `content_type`, `size`, `storage_key`, `description`, `sort_order`, `created_at`, `sha256`)
  SELECT `id`, `element_id`, `purpose`, `file_name`, `content_type`, `size`, `storage_key`, `description`, `sort_order`, `created_at`, `sha256`
  FROM `media_old` ORDER BY `id`;
--> statement-breakpoint
DROP TABLE `media_old`;
--> statement-breakpoint
CREATE INDEX `media_element_idx` ON `media` (`element_id`, `sort_order`);

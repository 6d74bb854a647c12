-- A category's products in SKU order from one index, and a leaner company index of the
-- classification links (issue 18; docs/search.md "Placements in SKU order", "Storage").
--
-- 1. `product_categories` carries its product's SKU, and `product_categories_category_idx`
--    becomes (category_id, sku) (+ product_id, the rest of the primary key): the first page of a
--    category in SKU order, with or without a search, reads the category's first entries in that
--    order instead of reading every product placed in it (1,000 rows on as many pages at 1M) to
--    sort them. Triggers keep the copy right for every writer: a placement written without the
--    SKU gets it from its product, and a product's new SKU is copied to its placements, in the
--    same transaction as the write.
-- 2. `classification_links_company_idx` (company_id, link_id) becomes (company_id): lookups by
--    link id use the unique index on it, company-wide walks need only the company and the row key
--    (which every index entry holds), and ListClassificationLinkIds, which paged in link id order
--    along it, now pages in row-key (creation) order. 36 bytes less per classification, about 45
--    bytes per product row at 1M.
-- 3. `classification_links` loses `created_at` and `updated_at`: written, never read (no output,
--    query, export or sync record has them; the change history says when and by whom a
--    classification changed). About 48 bytes per product row at 1M.
--
-- Together about 75 bytes per product row less and 15 more: a fresh 1M seed measured in
-- docs/search.md "Storage".
ALTER TABLE `product_categories` ADD COLUMN `sku` text;
--> statement-breakpoint
UPDATE `product_categories` SET `sku` = (SELECT p.`sku` FROM `products` p WHERE p.`id` = `product_categories`.`product_id`);
--> statement-breakpoint
DROP INDEX `product_categories_category_idx`;
--> statement-breakpoint
CREATE INDEX `product_categories_category_idx` ON `product_categories` (`category_id`, `sku`);
--> statement-breakpoint
CREATE TRIGGER `product_categories_sku_insert` AFTER INSERT ON `product_categories`
  WHEN NEW.`sku` IS NOT (SELECT p.`sku` FROM `products` p WHERE p.`id` = NEW.`product_id`) BEGIN
  UPDATE `product_categories` SET `sku` = (SELECT p.`sku` FROM `products` p WHERE p.`id` = NEW.`product_id`)
    WHERE `product_id` = NEW.`product_id` AND `category_id` = NEW.`category_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_sku_update` AFTER UPDATE OF `sku`, `product_id` ON `product_categories`
  WHEN NEW.`sku` IS NOT (SELECT p.`sku` FROM `products` p WHERE p.`id` = NEW.`product_id`) BEGIN
  UPDATE `product_categories` SET `sku` = (SELECT p.`sku` FROM `products` p WHERE p.`id` = NEW.`product_id`)
    WHERE `product_id` = NEW.`product_id` AND `category_id` = NEW.`category_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `products_placement_sku` AFTER UPDATE OF `sku` ON `products`
  WHEN OLD.`sku` IS NOT NEW.`sku` BEGIN
  UPDATE `product_categories` SET `sku` = NEW.`sku` WHERE `product_id` = NEW.`id`;
END;
--> statement-breakpoint
DROP INDEX `classification_links_company_idx`;
--> statement-breakpoint
CREATE INDEX `classification_links_company_idx` ON `classification_links` (`company_id`);
--> statement-breakpoint
ALTER TABLE `classification_links` DROP COLUMN `created_at`;
--> statement-breakpoint
ALTER TABLE `classification_links` DROP COLUMN `updated_at`;

-- Bulk inserts of products index themselves once per statement list, not once per row (issue 32
-- part 7, docs/benchmarks.md "Import throughput, part 13"; docs/search.md "Bulk inserts").
--
-- `products_fts_insert` (0057) indexes each new row and keeps the search heads of its master in
-- step, a trigger program per row: about 8 ms of the 70 ms of SQL of an import batch of 500
-- products. While `search_index_defer` holds a row it does not fire; the writer (the upsert's
-- WriteSet, src/catalog/upsert/write/search-index.ts) inserts the row, its multi-row INSERTs of
-- products, deletes the row again and then runs the same work set-based for the rows it inserted:
-- one INSERT INTO products_fts for all of them, and the heads of their masters (the new masters
-- and the existing masters of new variants) recomputed as the trigger's last firing for each
-- master would have left them. All of it inside one D1 batch (one transaction): no other write
-- sees the row, and a failed batch rolls it back. The body below is 0057's, unchanged.
CREATE TABLE `search_index_defer` (`id` integer PRIMARY KEY);
--> statement-breakpoint
DROP TRIGGER `products_fts_insert`;
--> statement-breakpoint
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products`
  WHEN NOT EXISTS (SELECT 1 FROM `search_index_defer`) BEGIN
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, NEW.`name`, NEW.`manufacturer_pid`, NEW.`gtin`,
      NEW.`keywords`);
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, NEW.`name`, NEW.`id` FROM `search_head_bounds` b
    WHERE NEW.`parent_id` IS NULL AND NEW.`name` IS NOT NULL AND b.`catalog_id` = NEW.`catalog_id`
      AND (NEW.`name` COLLATE NOCASE, NEW.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products` v WHERE (v.`rowid` = NEW.`rowid` OR v.`parent_id` = NEW.`id`)
        AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = v.`rowid`)
          OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = v.`id`
            AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
            AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + v.`rowid`))));
  DELETE FROM `search_heads` WHERE (`catalog_id`, `name`, `product_id`) IN (
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = NEW.`parent_id` AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = NEW.`parent_id`));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = NEW.`parent_id` AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products` v WHERE (v.`rowid` = p.`rowid` OR v.`parent_id` = p.`id`)
        AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = v.`rowid`)
          OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = v.`id`
            AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
            AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + v.`rowid`))));
END;

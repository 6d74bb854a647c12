-- Search heads hold masters whose family matches (docs/search.md "Variants", issue 32 part 6).
-- A broad search (every word in more than 5,000 documents) listed only masters whose own
-- documents match: a word only variants carry, in more than 5,000 of them, found nothing. The
-- product list now maps a variant's document to its master in every plan (product-list-source.ts),
-- and the search heads, which list a broad search by name, follow: a master belongs to a head
-- when one document of its family (its own, its variants', in any language) matches the phrase.
-- The triggers of 0032 are re-created with their index statements unchanged (the update's also
-- fires when a variant moves to another master); their head
-- statements check the family, and every write of a variant's indexed text, of its parent or of
-- its translated name and keywords recomputes its master's (old and new) head entries, in the
-- same transaction. The heads built before are dropped: the next broad search by name builds
-- them again (one walk per phrase and catalog).
DELETE FROM `search_heads`;
--> statement-breakpoint
DELETE FROM `search_head_bounds`;
--> statement-breakpoint
DROP TRIGGER `products_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `products_fts_update`;
--> statement-breakpoint
DROP TRIGGER `products_fts_delete`;
--> statement-breakpoint
DROP TRIGGER `translations_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `translations_fts_update`;
--> statement-breakpoint
DROP TRIGGER `translations_fts_delete`;
--> statement-breakpoint
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products` BEGIN
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
--> statement-breakpoint
CREATE TRIGGER `products_fts_update` AFTER UPDATE OF `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`, `parent_id` ON `products`
  WHEN OLD.`parent_id` IS NULL OR NEW.`parent_id` IS NULL OR OLD.`sku` IS NOT NEW.`sku`
    OR OLD.`manufacturer_pid` IS NOT NEW.`manufacturer_pid` OR OLD.`gtin` IS NOT NEW.`gtin`
    OR OLD.`name` IS NOT NEW.`name` OR OLD.`keywords` IS NOT NEW.`keywords`
    OR OLD.`parent_id` IS NOT NEW.`parent_id` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, OLD.`name`, OLD.`manufacturer_pid`, OLD.`gtin`,
      OLD.`keywords`);
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, NEW.`name`, NEW.`manufacturer_pid`, NEW.`gtin`,
      NEW.`keywords`);
  DELETE FROM `search_heads` WHERE OLD.`parent_id` IS NULL AND `catalog_id` = OLD.`catalog_id`
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` = OLD.`catalog_id`)
    AND `name` = OLD.`name` AND `product_id` = OLD.`id`;
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
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = OLD.`parent_id` AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`parent_id`));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = OLD.`parent_id` AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products` v WHERE (v.`rowid` = p.`rowid` OR v.`parent_id` = p.`id`)
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
--> statement-breakpoint
CREATE TRIGGER `products_fts_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, OLD.`name`, OLD.`manufacturer_pid`, OLD.`gtin`, OLD.`keywords`);
  DELETE FROM `search_heads` WHERE OLD.`parent_id` IS NULL AND `catalog_id` = OLD.`catalog_id`
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` = OLD.`catalog_id`)
    AND `name` = OLD.`name` AND `product_id` = OLD.`id`;
  DELETE FROM `search_heads` WHERE (`catalog_id`, `name`, `product_id`) IN (
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = OLD.`parent_id` AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`parent_id`));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = OLD.`parent_id` AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products` v WHERE (v.`rowid` = p.`rowid` OR v.`parent_id` = p.`id`)
        AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = v.`rowid`)
          OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = v.`id`
            AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
            AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + v.`rowid`))));
END;
--> statement-breakpoint
CREATE TRIGGER `translations_fts_insert` AFTER INSERT ON `translations`
  WHEN NEW.`field` IN ('name', 'keywords') AND NEW.`lang` GLOB '[a-z][a-z][a-z]' BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT 'delete', (((unicode(substr(NEW.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(NEW.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(NEW.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`), NULL, iif(NEW.`field` = 'name', NULL, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'name')), NULL, NULL, iif(NEW.`field` = 'keywords', NULL, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'keywords'))
    FROM `products` p WHERE p.`id` = NEW.`element_id` AND (iif(NEW.`field` = 'name', NULL, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'name')) IS NOT NULL OR iif(NEW.`field` = 'keywords', NULL, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'keywords')) IS NOT NULL);
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT (((unicode(substr(NEW.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(NEW.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(NEW.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`), NULL, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'name'), NULL, NULL, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'keywords')
    FROM `products` p WHERE p.`id` = NEW.`element_id` AND ((SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'name') IS NOT NULL OR (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'keywords') IS NOT NULL);
  DELETE FROM `search_heads` WHERE (`catalog_id`, `name`, `product_id`) IN (
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = NEW.`element_id`) AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = NEW.`element_id`)));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = NEW.`element_id`) AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products` v WHERE (v.`rowid` = p.`rowid` OR v.`parent_id` = p.`id`)
        AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = v.`rowid`)
          OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = v.`id`
            AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
            AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + v.`rowid`))));
END;
--> statement-breakpoint
CREATE TRIGGER `translations_fts_update` AFTER UPDATE OF `value` ON `translations`
  WHEN NEW.`field` IN ('name', 'keywords') AND NEW.`lang` GLOB '[a-z][a-z][a-z]' BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT 'delete', (((unicode(substr(NEW.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(NEW.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(NEW.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`), NULL, iif(NEW.`field` = 'name', OLD.`value`, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'name')), NULL, NULL, iif(NEW.`field` = 'keywords', OLD.`value`, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'keywords'))
    FROM `products` p WHERE p.`id` = NEW.`element_id` AND (iif(NEW.`field` = 'name', OLD.`value`, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'name')) IS NOT NULL OR iif(NEW.`field` = 'keywords', OLD.`value`, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'keywords')) IS NOT NULL);
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT (((unicode(substr(NEW.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(NEW.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(NEW.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`), NULL, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'name'), NULL, NULL, (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'keywords')
    FROM `products` p WHERE p.`id` = NEW.`element_id` AND ((SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'name') IS NOT NULL OR (SELECT `value` FROM `translations` WHERE `element_id` = NEW.`element_id` AND `lang` = NEW.`lang` AND `field` = 'keywords') IS NOT NULL);
  DELETE FROM `search_heads` WHERE (`catalog_id`, `name`, `product_id`) IN (
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = NEW.`element_id`) AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = NEW.`element_id`)));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = NEW.`element_id`) AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products` v WHERE (v.`rowid` = p.`rowid` OR v.`parent_id` = p.`id`)
        AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = v.`rowid`)
          OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = v.`id`
            AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
            AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + v.`rowid`))));
END;
--> statement-breakpoint
CREATE TRIGGER `translations_fts_delete` AFTER DELETE ON `translations`
  WHEN OLD.`field` IN ('name', 'keywords') AND OLD.`lang` GLOB '[a-z][a-z][a-z]' BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT 'delete', (((unicode(substr(OLD.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(OLD.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(OLD.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`), NULL, iif(OLD.`field` = 'name', OLD.`value`, (SELECT `value` FROM `translations` WHERE `element_id` = OLD.`element_id` AND `lang` = OLD.`lang` AND `field` = 'name')), NULL, NULL, iif(OLD.`field` = 'keywords', OLD.`value`, (SELECT `value` FROM `translations` WHERE `element_id` = OLD.`element_id` AND `lang` = OLD.`lang` AND `field` = 'keywords'))
    FROM `products` p WHERE p.`id` = OLD.`element_id` AND (iif(OLD.`field` = 'name', OLD.`value`, (SELECT `value` FROM `translations` WHERE `element_id` = OLD.`element_id` AND `lang` = OLD.`lang` AND `field` = 'name')) IS NOT NULL OR iif(OLD.`field` = 'keywords', OLD.`value`, (SELECT `value` FROM `translations` WHERE `element_id` = OLD.`element_id` AND `lang` = OLD.`lang` AND `field` = 'keywords')) IS NOT NULL);
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT (((unicode(substr(OLD.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(OLD.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(OLD.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`), NULL, (SELECT `value` FROM `translations` WHERE `element_id` = OLD.`element_id` AND `lang` = OLD.`lang` AND `field` = 'name'), NULL, NULL, (SELECT `value` FROM `translations` WHERE `element_id` = OLD.`element_id` AND `lang` = OLD.`lang` AND `field` = 'keywords')
    FROM `products` p WHERE p.`id` = OLD.`element_id` AND ((SELECT `value` FROM `translations` WHERE `element_id` = OLD.`element_id` AND `lang` = OLD.`lang` AND `field` = 'name') IS NOT NULL OR (SELECT `value` FROM `translations` WHERE `element_id` = OLD.`element_id` AND `lang` = OLD.`lang` AND `field` = 'keywords') IS NOT NULL);
  DELETE FROM `search_heads` WHERE (`catalog_id`, `name`, `product_id`) IN (
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = OLD.`element_id`) AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = OLD.`element_id`)));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = (SELECT coalesce(`parent_id`, `id`) FROM `products` WHERE `id` = OLD.`element_id`) AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND EXISTS (SELECT 1 FROM `products` v WHERE (v.`rowid` = p.`rowid` OR v.`parent_id` = p.`id`)
        AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = v.`rowid`)
          OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = v.`id`
            AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
            AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + v.`rowid`))));
END;

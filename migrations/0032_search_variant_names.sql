-- Variants' names and keywords in the search index, in every language (docs/search.md
-- "Variants", "Languages"; issue 18). Until now a variant's document held only its SKU,
-- manufacturer part number and GTIN, and its translated name had no document: a word of a
-- variant's own name ("Leuchte blau", "Lamp blue") did not find its product. Now a variant is
-- indexed as a master is: its own document carries its name and keywords (the catalog's
-- default language), and its translated name and keywords are one document per language with
-- docid = language number * 2^36 + the variant's rowid (migration 0024's scheme). A search
-- maps a document to its product by docid % 2^36 and a variant's product to its master, so
-- such a word lists the master, once, as a variant's SKU does.
--
-- Every 'delete' passes exactly the values its document was indexed with: the variants'
-- documents are first removed with 0008's values (name and keywords NULL), then indexed again.
-- The triggers of 0022 and 0024 are re-created without the masters-only conditions on the
-- index (search heads stay masters-only: they list masters by name).
DROP TRIGGER `products_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `products_fts_update`;
--> statement-breakpoint
DROP TRIGGER `products_fts_delete`;
--> statement-breakpoint
DROP TRIGGER `products_translations_delete`;
--> statement-breakpoint
DROP TRIGGER `translations_fts_insert`;
--> statement-breakpoint
DROP TRIGGER `translations_fts_update`;
--> statement-breakpoint
DROP TRIGGER `translations_fts_delete`;
--> statement-breakpoint
INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
  SELECT 'delete', `rowid`, `sku`, NULL, `manufacturer_pid`, `gtin`, NULL FROM `products`
  WHERE `parent_id` IS NOT NULL AND (`name` IS NOT NULL OR `keywords` IS NOT NULL);
--> statement-breakpoint
INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
  SELECT `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords` FROM `products`
  WHERE `parent_id` IS NOT NULL AND (`name` IS NOT NULL OR `keywords` IS NOT NULL);
--> statement-breakpoint
INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
  SELECT (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`), NULL,
    max(iif(t.`field` = 'name', t.`value`, NULL)), NULL, NULL, max(iif(t.`field` = 'keywords', t.`value`, NULL))
  FROM `translations` t CROSS JOIN `products` p ON p.`id` = t.`element_id`
  WHERE t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]' AND p.`parent_id` IS NOT NULL
  GROUP BY t.`element_id`, t.`lang`;
--> statement-breakpoint
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, NEW.`name`, NEW.`manufacturer_pid`, NEW.`gtin`,
      NEW.`keywords`);
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, NEW.`name`, NEW.`id` FROM `search_head_bounds` b
    WHERE NEW.`parent_id` IS NULL AND NEW.`name` IS NOT NULL AND b.`catalog_id` = NEW.`catalog_id`
      AND (NEW.`name` COLLATE NOCASE, NEW.`id`) <= (b.`name`, b.`product_id`)
      AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = NEW.`rowid`)
        OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = NEW.`id`
          AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
          AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + NEW.`rowid`)));
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_update` AFTER UPDATE OF `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`, `parent_id` ON `products`
  WHEN OLD.`parent_id` IS NULL OR NEW.`parent_id` IS NULL OR OLD.`sku` IS NOT NEW.`sku`
    OR OLD.`manufacturer_pid` IS NOT NEW.`manufacturer_pid` OR OLD.`gtin` IS NOT NEW.`gtin`
    OR OLD.`name` IS NOT NEW.`name` OR OLD.`keywords` IS NOT NEW.`keywords` BEGIN
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
      AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = NEW.`rowid`)
        OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = NEW.`id`
          AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
          AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + NEW.`rowid`)));
END;
--> statement-breakpoint
-- 0022's, with the variant's name and keywords in its 'delete'.
CREATE TRIGGER `products_fts_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, OLD.`name`, OLD.`manufacturer_pid`, OLD.`gtin`, OLD.`keywords`);
  DELETE FROM `search_heads` WHERE OLD.`parent_id` IS NULL AND `catalog_id` = OLD.`catalog_id`
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` = OLD.`catalog_id`)
    AND `name` = OLD.`name` AND `product_id` = OLD.`id`;
END;
--> statement-breakpoint
-- 0024's, with the translated documents of masters and variants removed before the translations go.
CREATE TRIGGER `products_translations_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    SELECT 'delete', (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + OLD.`rowid`), NULL,
      max(iif(t.`field` = 'name', t.`value`, NULL)), NULL, NULL, max(iif(t.`field` = 'keywords', t.`value`, NULL))
    FROM `translations` t
    WHERE t.`element_id` = OLD.`id` AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
    GROUP BY t.`lang`;
  DELETE FROM `translations` WHERE `element_id` = OLD.`id`;
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
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = NEW.`element_id` AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = NEW.`element_id`));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = NEW.`element_id` AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = p.`rowid`)
        OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = p.`id`
          AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
          AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`)));
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
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = NEW.`element_id` AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = NEW.`element_id`));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = NEW.`element_id` AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = p.`rowid`)
        OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = p.`id`
          AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
          AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`)));
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
    SELECT `catalog_id`, `name`, `id` FROM `products` WHERE `id` = OLD.`element_id` AND `parent_id` IS NULL)
    AND `phrase` IN (SELECT `phrase` FROM `search_head_bounds` WHERE `catalog_id` =
      (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`element_id`));
  INSERT INTO `search_heads` (`catalog_id`, `phrase`, `name`, `product_id`)
    SELECT b.`catalog_id`, b.`phrase`, p.`name`, p.`id` FROM `products` p CROSS JOIN `search_head_bounds` b
    WHERE p.`id` = OLD.`element_id` AND p.`parent_id` IS NULL AND p.`name` IS NOT NULL AND b.`catalog_id` = p.`catalog_id`
      AND (p.`name` COLLATE NOCASE, p.`id`) <= (b.`name`, b.`product_id`)
      AND (EXISTS (SELECT 1 FROM `products_fts` c WHERE c.`products_fts` MATCH b.`phrase` AND c.`rowid` = p.`rowid`)
        OR EXISTS (SELECT 1 FROM `translations` t CROSS JOIN `products_fts` c WHERE t.`element_id` = p.`id`
          AND t.`field` IN ('name', 'keywords') AND t.`lang` GLOB '[a-z][a-z][a-z]'
          AND c.`products_fts` MATCH b.`phrase` AND c.`rowid` = (((unicode(substr(t.`lang`, 1, 1)) - 96) * 1024 + (unicode(substr(t.`lang`, 2, 1)) - 96) * 32 + (unicode(substr(t.`lang`, 3, 1)) - 96)) * 68719476736 + p.`rowid`)));
END;

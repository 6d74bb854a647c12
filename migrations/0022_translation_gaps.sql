-- The grid filter "missing translation in X" (docs/languages.md, "REST"): one row per master
-- product and catalog language (other than the catalog's default) in which the product's name or
-- description has a default-language text but no translation. Kept by the triggers below, so
-- every writer (REST, agents, imports, restore) keeps it, and the filter reads a key range
-- instead of walking the catalog: at 1M masters a language nobody has translated is 1M rows
-- (about 80 bytes each), a finished translation none. Every statement below names the whole key
-- (catalog, language, product), so no second index is needed.
CREATE TABLE `translation_gaps` (
	`catalog_id` text NOT NULL,
	`lang` text NOT NULL,
	`product_id` text NOT NULL,
	PRIMARY KEY(`catalog_id`, `lang`, `product_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Every gap of the masters in one catalog (the backfill; and the recompute after a catalog's languages change).
INSERT INTO `translation_gaps` (`catalog_id`, `lang`, `product_id`)
SELECT p.`catalog_id`, l.value, p.`id`
FROM `catalogs` c CROSS JOIN json_each(c.`languages`) l CROSS JOIN `products` p ON p.`catalog_id` = c.`id`
WHERE l.value <> c.`language` AND p.`parent_id` IS NULL AND (
	(coalesce(p.`name`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
		WHERE t.`element_id` = p.`id` AND t.`field` = 'name' AND t.`lang` = l.value))
	OR (coalesce(p.`description`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
		WHERE t.`element_id` = p.`id` AND t.`field` = 'description' AND t.`lang` = l.value)));
--> statement-breakpoint
CREATE TRIGGER `translation_gaps_product_insert` AFTER INSERT ON `products` WHEN NEW.`parent_id` IS NULL BEGIN
	INSERT OR IGNORE INTO `translation_gaps` (`catalog_id`, `lang`, `product_id`)
	SELECT c.`id`, l.value, NEW.`id` FROM `catalogs` c CROSS JOIN json_each(c.`languages`) l
	WHERE c.`id` = NEW.`catalog_id` AND l.value <> c.`language` AND (
		(coalesce(NEW.`name`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
			WHERE t.`element_id` = NEW.`id` AND t.`field` = 'name' AND t.`lang` = l.value))
		OR (coalesce(NEW.`description`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
			WHERE t.`element_id` = NEW.`id` AND t.`field` = 'description' AND t.`lang` = l.value)));
END;
--> statement-breakpoint
CREATE TRIGGER `translation_gaps_product_update` AFTER UPDATE OF `name`, `description` ON `products`
WHEN NEW.`parent_id` IS NULL AND ((coalesce(OLD.`name`, '') <> '') IS NOT (coalesce(NEW.`name`, '') <> '')
	OR (coalesce(OLD.`description`, '') <> '') IS NOT (coalesce(NEW.`description`, '') <> '')) BEGIN
	DELETE FROM `translation_gaps` WHERE `catalog_id` = NEW.`catalog_id`
		AND `lang` IN (SELECT value FROM json_each((SELECT `languages` FROM `catalogs` WHERE `id` = NEW.`catalog_id`)))
		AND `product_id` = NEW.`id`;
	INSERT OR IGNORE INTO `translation_gaps` (`catalog_id`, `lang`, `product_id`)
	SELECT c.`id`, l.value, NEW.`id` FROM `catalogs` c CROSS JOIN json_each(c.`languages`) l
	WHERE c.`id` = NEW.`catalog_id` AND l.value <> c.`language` AND (
		(coalesce(NEW.`name`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
			WHERE t.`element_id` = NEW.`id` AND t.`field` = 'name' AND t.`lang` = l.value))
		OR (coalesce(NEW.`description`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
			WHERE t.`element_id` = NEW.`id` AND t.`field` = 'description' AND t.`lang` = l.value)));
END;
--> statement-breakpoint
CREATE TRIGGER `translation_gaps_product_delete` AFTER DELETE ON `products` WHEN OLD.`parent_id` IS NULL BEGIN
	DELETE FROM `translation_gaps` WHERE `catalog_id` = OLD.`catalog_id`
		AND `lang` IN (SELECT value FROM json_each((SELECT `languages` FROM `catalogs` WHERE `id` = OLD.`catalog_id`)))
		AND `product_id` = OLD.`id`;
END;
--> statement-breakpoint
-- A translation of a name or description written or removed: that product's gap in that language.
CREATE TRIGGER `translation_gaps_translation_insert` AFTER INSERT ON `translations`
WHEN NEW.`field` IN ('name', 'description') BEGIN
	DELETE FROM `translation_gaps`
	WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = NEW.`element_id`)
		AND `lang` = NEW.`lang` AND `product_id` = NEW.`element_id`
		AND NOT ((coalesce((SELECT `name` FROM `products` WHERE `id` = NEW.`element_id`), '') <> ''
			AND NOT EXISTS (SELECT 1 FROM `translations` t WHERE t.`element_id` = NEW.`element_id` AND t.`field` = 'name' AND t.`lang` = NEW.`lang`))
		OR (coalesce((SELECT `description` FROM `products` WHERE `id` = NEW.`element_id`), '') <> ''
			AND NOT EXISTS (SELECT 1 FROM `translations` t WHERE t.`element_id` = NEW.`element_id` AND t.`field` = 'description' AND t.`lang` = NEW.`lang`)));
END;
--> statement-breakpoint
CREATE TRIGGER `translation_gaps_translation_delete` AFTER DELETE ON `translations`
WHEN OLD.`field` IN ('name', 'description') BEGIN
	INSERT OR IGNORE INTO `translation_gaps` (`catalog_id`, `lang`, `product_id`)
	SELECT c.`id`, OLD.`lang`, p.`id` FROM `products` p CROSS JOIN `catalogs` c ON c.`id` = p.`catalog_id`
	WHERE p.`id` = OLD.`element_id` AND p.`parent_id` IS NULL AND OLD.`lang` <> c.`language`
		AND EXISTS (SELECT 1 FROM json_each(c.`languages`) l WHERE l.value = OLD.`lang`) AND (
		(coalesce(p.`name`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
			WHERE t.`element_id` = p.`id` AND t.`field` = 'name' AND t.`lang` = OLD.`lang`))
		OR (coalesce(p.`description`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
			WHERE t.`element_id` = p.`id` AND t.`field` = 'description' AND t.`lang` = OLD.`lang`)));
END;
--> statement-breakpoint
-- A catalog that publishes another language: its products' gaps recomputed (an admin's rare step;
-- at 1M masters one statement of about a million rows for a language nobody has translated).
CREATE TRIGGER `translation_gaps_catalog_languages` AFTER UPDATE OF `languages`, `language` ON `catalogs`
WHEN OLD.`languages` IS NOT NEW.`languages` OR OLD.`language` IS NOT NEW.`language` BEGIN
	DELETE FROM `translation_gaps` WHERE `catalog_id` = NEW.`id`
		AND (`lang` = NEW.`language` OR `lang` NOT IN (SELECT value FROM json_each(NEW.`languages`)));
	INSERT OR IGNORE INTO `translation_gaps` (`catalog_id`, `lang`, `product_id`)
	SELECT NEW.`id`, l.value, p.`id`
	FROM json_each(NEW.`languages`) l CROSS JOIN `products` p ON p.`catalog_id` = NEW.`id`
	WHERE l.value <> NEW.`language` AND l.value NOT IN (SELECT value FROM json_each(OLD.`languages`))
		AND p.`parent_id` IS NULL AND (
		(coalesce(p.`name`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
			WHERE t.`element_id` = p.`id` AND t.`field` = 'name' AND t.`lang` = l.value))
		OR (coalesce(p.`description`, '') <> '' AND NOT EXISTS (SELECT 1 FROM `translations` t
			WHERE t.`element_id` = p.`id` AND t.`field` = 'description' AND t.`lang` = l.value)));
END;
--> statement-breakpoint
CREATE TRIGGER `translation_gaps_catalog_delete` AFTER DELETE ON `catalogs` BEGIN
	DELETE FROM `translation_gaps` WHERE `catalog_id` = OLD.`id`;
END;

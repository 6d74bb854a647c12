-- Channels and completeness (issue 21, docs/completeness.md). A channel is a named output of a
-- company (a shop, a data pool, a print catalog; export templates and sync connections name
-- theirs) with requirements per language it publishes. `channel_rules` holds the requirements
-- expanded to one row per language, written in the same batch as the channel; the view
-- `completeness_checks` is THE rule: one row per master product and rule with `ok` 0/1. The
-- triggers below keep `completeness` (one row per master, channel and language: a percentage
-- and the labels of what is missing) current in the transaction of every write that changes
-- what a rule reads, whatever surface made it; a change of the rules is recomputed by the job
-- `completeness` in pages. Rows are keyed by the product's rowid (as products_fts is), so a
-- master costs a few bytes per channel and language instead of two copies of a 36-character id.

CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`channel_id` text NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE CASCADE,
	`name` text NOT NULL,
	`description` text,
	`languages` text NOT NULL,
	`requirements` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_channel_id_uq` ON `channels` (`channel_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_company_name_uq` ON `channels` (`company_id`, `name`);
--> statement-breakpoint
-- One requirement of a channel in one language. `target`: the field name, attribute code, media
-- purpose, price type or classification group; `ref`: the attribute's id; `amount`: the least
-- number of media; `release`: SYSTEM-version; `share`: all | mandatory; `label`: what a missing
-- list says (e.g. `name`, `values.colour`, `media.normal>=2`).
CREATE TABLE `channel_rules` (
	`company_id` text NOT NULL,
	`channel_key` integer NOT NULL,
	`lang` text NOT NULL,
	`position` integer NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`ref` text,
	`amount` integer DEFAULT 1 NOT NULL,
	`release` text,
	`share` text,
	`label` text NOT NULL,
	PRIMARY KEY(`company_id`, `channel_key`, `lang`, `position`)
) WITHOUT ROWID;
--> statement-breakpoint
-- One master product in one channel and language: `score` 0-100 (the share of the rules met,
-- rounded down) and `missing` the JSON list of the labels not met (NULL when complete).
CREATE TABLE `completeness` (
	`product_key` integer NOT NULL,
	`channel_key` integer NOT NULL,
	`lang` text NOT NULL,
	`score` integer NOT NULL,
	`missing` text,
	PRIMARY KEY(`product_key`, `channel_key`, `lang`)
) WITHOUT ROWID;
--> statement-breakpoint
-- The grid's "incomplete for channel X" and its sort by score read this index.
CREATE INDEX `completeness_channel_idx` ON `completeness` (`channel_key`, `lang`, `score`);
--> statement-breakpoint
-- Duplicate GTINs within a company (quality rule gtinUnique) and the refresh of the other holders.
CREATE INDEX `products_gtin_idx` ON `products` (`gtin`) WHERE `gtin` IS NOT NULL AND `gtin` <> '';
--> statement-breakpoint
CREATE VIEW `completeness_checks` AS
SELECT p.rowid AS product_key, r.channel_key, r.lang, r.position, r.label,
  CASE r.kind
    WHEN 'field' THEN CASE
      WHEN r.target IN ('name', 'description', 'keywords') AND r.lang <> c.language THEN
        EXISTS (SELECT 1 FROM translations t WHERE t.element_id = p.id AND t.field = r.target AND t.lang = r.lang AND t.value <> '')
      ELSE coalesce(CASE r.target WHEN 'name' THEN p.name WHEN 'description' THEN p.description WHEN 'keywords' THEN p.keywords WHEN 'sku' THEN p.sku WHEN 'gtin' THEN p.gtin WHEN 'manufacturerName' THEN p.manufacturer_name WHEN 'manufacturerPid' THEN p.manufacturer_pid WHEN 'unit' THEN p.unit WHEN 'price' THEN p.price WHEN 'priceQuantity' THEN CAST(p.price_quantity AS TEXT) WHEN 'deliveryTimeDays' THEN CAST(p.delivery_time_days AS TEXT) END, '') <> '' END
    WHEN 'attribute' THEN CASE
      WHEN r.lang <> c.language AND coalesce((SELECT a.localizable FROM attributes a WHERE a.id = r.ref), 0) = 1 THEN
        EXISTS (SELECT 1 FROM translations t WHERE t.element_id = p.id AND t.field = 'values.' || r.target AND t.lang = r.lang AND t.value <> '')
      ELSE EXISTS (SELECT 1 FROM attribute_values v WHERE v.element_id = p.id AND v.attribute_id = r.ref AND v.value <> '') END
    WHEN 'media' THEN (SELECT count(*) FROM media m WHERE m.element_id = p.id AND m.purpose = r.target) >= r.amount
    WHEN 'price' THEN
      EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id AND pp.type = r.target
        AND (pp.amount IS NOT NULL OR coalesce(p.price, '') <> ''))
      OR (r.target = 'net_list' AND coalesce(p.price, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id))
    WHEN 'classification' THEN EXISTS (SELECT 1 FROM classification_links l JOIN classification_link_classes k ON k.link_id = l.id
        WHERE l.element_id = p.id AND k."group" = r.target AND (r.release IS NULL OR k.system = r.release))
    WHEN 'features' THEN EXISTS (SELECT 1 FROM classification_links l JOIN classification_link_classes k ON k.link_id = l.id
        WHERE l.element_id = p.id AND k."group" = r.target AND (r.release IS NULL OR k.system = r.release)) AND (SELECT count(*) FROM classification_links l
        JOIN classification_link_classes k ON k.link_id = l.id AND k."group" = r.target
        JOIN classification_class_features f ON f."group" = k."group" AND f.class_code = k.code
        WHERE l.element_id = p.id AND r.release IS NULL
          AND NOT EXISTS (SELECT 1 FROM classification_link_features lf WHERE lf.link_id = l.id AND lf."group" = k."group" AND lf.code = f.feature_code))
      + (SELECT count(*) FROM classification_links l
        JOIN classification_link_classes k ON k.link_id = l.id AND k."group" = r.target AND k.system = r.release
        JOIN classification_releases cr ON cr.status = 'loaded' AND cr.system || '-' || cr.version = r.release
        JOIN release_class_features f ON f.release_id = cr.id AND f.class_code = k.code AND (r.share = 'all' OR f.mandatory = 1)
        WHERE l.element_id = p.id AND r.release IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM classification_link_features lf WHERE lf.link_id = l.id AND lf."group" = k."group" AND lf.code = f.feature_code)) = 0
    WHEN 'gtinCheckDigit' THEN coalesce(p.gtin, '') = '' OR (length(p.gtin) IN (8, 12, 13, 14) AND p.gtin NOT GLOB '*[^0-9]*'
      AND (3 * (substr(substr('000000' || p.gtin, -14), 1, 1) + substr(substr('000000' || p.gtin, -14), 3, 1) + substr(substr('000000' || p.gtin, -14), 5, 1) + substr(substr('000000' || p.gtin, -14), 7, 1) + substr(substr('000000' || p.gtin, -14), 9, 1) + substr(substr('000000' || p.gtin, -14), 11, 1) + substr(substr('000000' || p.gtin, -14), 13, 1)) + substr(substr('000000' || p.gtin, -14), 2, 1) + substr(substr('000000' || p.gtin, -14), 4, 1) + substr(substr('000000' || p.gtin, -14), 6, 1) + substr(substr('000000' || p.gtin, -14), 8, 1) + substr(substr('000000' || p.gtin, -14), 10, 1) + substr(substr('000000' || p.gtin, -14), 12, 1) + substr(substr('000000' || p.gtin, -14), 14, 1)) % 10 = 0)
    WHEN 'gtinUnique' THEN coalesce(p.gtin, '') = '' OR NOT EXISTS (SELECT 1 FROM products o
      WHERE o.gtin = p.gtin AND o.gtin IS NOT NULL AND o.gtin <> '' AND o.company_id = p.company_id AND o.id <> p.id)
    WHEN 'bmecatLengths' THEN length(coalesce(p.name, '')) <= 150 AND length(coalesce(p.description, '')) <= 64000
      AND length(coalesce(p.manufacturer_pid, '')) <= 50 AND length(coalesce(p.manufacturer_name, '')) <= 50
      AND length(coalesce(p.sku, '')) <= 32
    ELSE 0 END AS ok
FROM products p
JOIN catalogs c ON c.id = p.catalog_id
JOIN channel_rules r ON r.company_id = p.company_id
WHERE p.parent_id IS NULL;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_insert` AFTER INSERT ON `products` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT NEW.rowid UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT NEW.rowid UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_update` AFTER UPDATE OF `sku`, `name`, `description`, `keywords`, `gtin`, `manufacturer_name`, `manufacturer_pid`, `unit`, `price`, `price_quantity`, `delivery_time_days`, `catalog_id`, `parent_id` ON `products` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT NEW.rowid UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT NEW.rowid UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_delete` AFTER DELETE ON `products` BEGIN
	DELETE FROM `completeness` WHERE `product_key` = OLD.rowid;
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_insert` AFTER INSERT ON `attribute_values` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_update` AFTER UPDATE ON `attribute_values` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_delete` AFTER DELETE ON `attribute_values` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_insert` AFTER INSERT ON `translations` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_update` AFTER UPDATE ON `translations` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_delete` AFTER DELETE ON `translations` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_insert` AFTER INSERT ON `media` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_update` AFTER UPDATE ON `media` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_delete` AFTER DELETE ON `media` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_insert` AFTER INSERT ON `product_prices` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_update` AFTER UPDATE ON `product_prices` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.product_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.product_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_delete` AFTER DELETE ON `product_prices` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_insert` AFTER INSERT ON `classification_link_classes` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_update` AFTER UPDATE ON `classification_link_classes` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_delete` AFTER DELETE ON `classification_link_classes` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_insert` AFTER INSERT ON `classification_link_features` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_update` AFTER UPDATE ON `classification_link_features` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_delete` AFTER DELETE ON `classification_link_features` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_links_delete` AFTER DELETE ON `classification_links` BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
-- Counts per channel and language, kept by the triggers below so the overview never counts score
-- rows: `item` '' = masters scored, '#complete' = those at 100, '#score' = the sum of scores,
-- any other item = the masters missing that label.
CREATE TABLE `completeness_counts` (
	`channel_key` integer NOT NULL,
	`lang` text NOT NULL,
	`item` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`channel_key`, `lang`, `item`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER `completeness_counts_insert` AFTER INSERT ON `completeness` BEGIN
	INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
		SELECT NEW.channel_key, NEW.lang, '', 1 UNION ALL
		SELECT NEW.channel_key, NEW.lang, '#score', NEW.score UNION ALL
		SELECT NEW.channel_key, NEW.lang, '#complete', 1 WHERE NEW.score = 100 UNION ALL
		SELECT NEW.channel_key, NEW.lang, j.value, 1 FROM json_each(coalesce(NEW.missing, '[]')) j WHERE 1
		ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_counts_delete` AFTER DELETE ON `completeness` BEGIN
	UPDATE `completeness_counts` SET `n` = `n` - CASE WHEN `item` = '#score' THEN OLD.score ELSE 1 END
		WHERE `channel_key` = OLD.channel_key AND `lang` = OLD.lang AND (`item` IN ('', '#score')
			OR (`item` = '#complete' AND OLD.score = 100)
			OR `item` IN (SELECT j.value FROM json_each(coalesce(OLD.missing, '[]')) j));
END;

-- Completeness, second part (issue 21, docs/completeness.md "Scope and variants"):
-- * a requirement can be limited to a category subtree: `channel_rules.category_id` (a rule with
--   one applies only to products placed in that category or below it; a variant is placed where
--   its master is);
-- * pattern rules on attributes: `channel_rules.pattern`, a GLOB pattern (D1 has no REGEXP);
-- * variants are scored too, in `variant_completeness` (same shape as `completeness`, so the
--   counters, the grid filter and onlyComplete exports keep meaning "masters"). What a variant
--   inherits is counted as the master's, as the BMEcat export with inheritFromMaster writes it:
--   name, description, keywords (per language), manufacturer name, unit, price, price quantity,
--   delivery time, attribute values filling gaps, media when it has none, the price list when it
--   has neither price nor list, the classification when it has none; SKU, GTIN and manufacturer
--   PID are its own.
-- The view and every trigger are replaced: a change of a master now rescores its variants, and
-- placing or removing a product in a category rescores it.
ALTER TABLE `channel_rules` ADD `category_id` text;
--> statement-breakpoint
ALTER TABLE `channel_rules` ADD `pattern` text;
--> statement-breakpoint
-- One variant (by its rowid) in one channel and language, as `completeness` is for masters.
CREATE TABLE `variant_completeness` (
	`product_key` integer NOT NULL,
	`channel_key` integer NOT NULL,
	`lang` text NOT NULL,
	`score` integer NOT NULL,
	`missing` text,
	PRIMARY KEY(`product_key`, `channel_key`, `lang`)
) WITHOUT ROWID;
--> statement-breakpoint
-- The channel's deletion removes variant rows in pages along this index.
CREATE INDEX `variant_completeness_channel_idx` ON `variant_completeness` (`channel_key`, `lang`, `score`);
--> statement-breakpoint
-- Deferred rescoring of bulk writes (src/db/score-refresh.ts): a row in completeness_defer exists
-- only inside one batch; meanwhile the triggers mark products here and the batch's end rescores them.
CREATE TABLE `completeness_defer` (`id` integer PRIMARY KEY);
--> statement-breakpoint
CREATE TABLE `completeness_dirty` (`product_key` integer PRIMARY KEY);
--> statement-breakpoint
DROP VIEW `completeness_checks`;
--> statement-breakpoint
CREATE VIEW `completeness_checks` AS
SELECT p.rowid AS product_key, p.parent_id IS NOT NULL AS variant, r.channel_key, r.lang, r.position, r.label,
  CASE r.kind
    WHEN 'field' THEN CASE
      WHEN r.target IN ('name', 'description', 'keywords') AND r.lang <> c.language THEN
        EXISTS (SELECT 1 FROM translations t WHERE t.element_id IN (p.id, p.parent_id) AND t.field = r.target AND t.lang = r.lang AND t.value <> '')
      ELSE coalesce(CASE r.target WHEN 'name' THEN coalesce(nullif(p.name, ''), m.name) WHEN 'description' THEN coalesce(nullif(p.description, ''), m.description) WHEN 'keywords' THEN coalesce(nullif(p.keywords, ''), m.keywords)
        WHEN 'sku' THEN p.sku WHEN 'gtin' THEN p.gtin WHEN 'manufacturerName' THEN coalesce(nullif(p.manufacturer_name, ''), m.manufacturer_name) WHEN 'manufacturerPid' THEN p.manufacturer_pid
        WHEN 'unit' THEN coalesce(nullif(p.unit, ''), m.unit) WHEN 'price' THEN coalesce(nullif(p.price, ''), m.price) WHEN 'priceQuantity' THEN CAST(coalesce(p.price_quantity, m.price_quantity) AS TEXT)
        WHEN 'deliveryTimeDays' THEN CAST(coalesce(p.delivery_time_days, m.delivery_time_days) AS TEXT) END, '') <> '' END
    WHEN 'attribute' THEN CASE
      WHEN r.lang <> c.language AND coalesce((SELECT a.localizable FROM attributes a WHERE a.id = r.ref), 0) = 1 THEN
        EXISTS (SELECT 1 FROM translations t WHERE t.element_id IN (p.id, p.parent_id) AND t.field = 'values.' || r.target AND t.lang = r.lang AND t.value <> '')
      ELSE EXISTS (SELECT 1 FROM attribute_values v WHERE v.element_id IN (p.id, p.parent_id) AND v.attribute_id = r.ref AND v.value <> '') END
    WHEN 'media' THEN (SELECT count(*) FROM media mm WHERE mm.element_id = (CASE WHEN p.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM media x WHERE x.element_id = p.id) THEN p.parent_id ELSE p.id END) AND mm.purpose = r.target) >= r.amount
    WHEN 'price' THEN (EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id AND pp.type = r.target
        AND (pp.amount IS NOT NULL OR coalesce(p.price, '') <> ''))
      OR (r.target = 'net_list' AND coalesce(p.price, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id)))
      OR (p.parent_id IS NOT NULL AND coalesce(p.price, '') = '' AND NOT EXISTS (SELECT 1 FROM product_prices x WHERE x.product_id = p.id)
        AND (EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = m.id AND pp.type = r.target
        AND (pp.amount IS NOT NULL OR coalesce(m.price, '') <> ''))
      OR (r.target = 'net_list' AND coalesce(m.price, '') <> ''
        AND NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = m.id))))
    WHEN 'classification' THEN EXISTS (SELECT 1 FROM classification_links l JOIN classification_link_classes k ON k.link_id = l.id
        WHERE l.element_id = (CASE WHEN p.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM classification_links x WHERE x.element_id = p.id) THEN p.parent_id ELSE p.id END) AND k."group" = r.target AND (r.release IS NULL OR k.system = r.release))
    WHEN 'features' THEN EXISTS (SELECT 1 FROM classification_links l JOIN classification_link_classes k ON k.link_id = l.id
        WHERE l.element_id = (CASE WHEN p.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM classification_links x WHERE x.element_id = p.id) THEN p.parent_id ELSE p.id END) AND k."group" = r.target AND (r.release IS NULL OR k.system = r.release)) AND (SELECT count(*) FROM classification_links l
        JOIN classification_link_classes k ON k.link_id = l.id AND k."group" = r.target
        JOIN classification_class_features f ON f."group" = k."group" AND f.class_code = k.code
        WHERE l.element_id = (CASE WHEN p.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM classification_links x WHERE x.element_id = p.id) THEN p.parent_id ELSE p.id END) AND r.release IS NULL
          AND NOT EXISTS (SELECT 1 FROM classification_link_features lf WHERE lf.link_id = l.id AND lf."group" = k."group" AND lf.code = f.feature_code))
      + (SELECT count(*) FROM classification_links l
        JOIN classification_link_classes k ON k.link_id = l.id AND k."group" = r.target AND k.system = r.release
        JOIN classification_releases cr ON cr.status = 'loaded' AND cr.system || '-' || cr.version = r.release
        JOIN release_class_features f ON f.release_id = cr.id AND f.class_code = k.code AND (r.share = 'all' OR f.mandatory = 1)
        WHERE l.element_id = (CASE WHEN p.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM classification_links x WHERE x.element_id = p.id) THEN p.parent_id ELSE p.id END) AND r.release IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM classification_link_features lf WHERE lf.link_id = l.id AND lf."group" = k."group" AND lf.code = f.feature_code)) = 0
    WHEN 'gtinCheckDigit' THEN coalesce(p.gtin, '') = '' OR (length(p.gtin) IN (8, 12, 13, 14) AND p.gtin NOT GLOB '*[^0-9]*'
      AND (3 * (substr(substr('000000' || p.gtin, -14), 1, 1) + substr(substr('000000' || p.gtin, -14), 3, 1) + substr(substr('000000' || p.gtin, -14), 5, 1) + substr(substr('000000' || p.gtin, -14), 7, 1) + substr(substr('000000' || p.gtin, -14), 9, 1) + substr(substr('000000' || p.gtin, -14), 11, 1) + substr(substr('000000' || p.gtin, -14), 13, 1)) + substr(substr('000000' || p.gtin, -14), 2, 1) + substr(substr('000000' || p.gtin, -14), 4, 1) + substr(substr('000000' || p.gtin, -14), 6, 1) + substr(substr('000000' || p.gtin, -14), 8, 1) + substr(substr('000000' || p.gtin, -14), 10, 1) + substr(substr('000000' || p.gtin, -14), 12, 1) + substr(substr('000000' || p.gtin, -14), 14, 1)) % 10 = 0)
    WHEN 'gtinUnique' THEN coalesce(p.gtin, '') = '' OR NOT EXISTS (SELECT 1 FROM products o
      WHERE o.gtin = p.gtin AND o.gtin IS NOT NULL AND o.gtin <> '' AND o.company_id = p.company_id AND o.id <> p.id)
    WHEN 'bmecatLengths' THEN length(coalesce(coalesce(nullif(p.name, ''), m.name), '')) <= 150 AND length(coalesce(coalesce(nullif(p.description, ''), m.description), '')) <= 64000
      AND length(coalesce(p.manufacturer_pid, '')) <= 50 AND length(coalesce(coalesce(nullif(p.manufacturer_name, ''), m.manufacturer_name), '')) <= 50
      AND length(coalesce(p.sku, '')) <= 32
    WHEN 'pattern' THEN coalesce(CASE WHEN r.lang <> c.language AND coalesce((SELECT a.localizable FROM attributes a WHERE a.id = r.ref), 0) = 1 THEN coalesce((SELECT t.value FROM translations t WHERE t.element_id = p.id AND t.field = 'values.' || r.target AND t.lang = r.lang AND t.value <> ''), (SELECT t.value FROM translations t WHERE t.element_id = p.parent_id AND t.field = 'values.' || r.target AND t.lang = r.lang AND t.value <> ''))
      ELSE coalesce((SELECT v.value FROM attribute_values v WHERE v.element_id = p.id AND v.attribute_id = r.ref AND v.value <> ''), (SELECT v.value FROM attribute_values v WHERE v.element_id = p.parent_id AND v.attribute_id = r.ref AND v.value <> '')) END GLOB r.pattern, 1)
    ELSE 0 END AS ok
FROM products p
JOIN catalogs c ON c.id = p.catalog_id
JOIN channel_rules r ON r.company_id = p.company_id
LEFT JOIN products m ON m.id = p.parent_id
WHERE r.category_id IS NULL OR EXISTS (WITH RECURSIVE up(id) AS (
    SELECT pc.category_id FROM product_categories pc WHERE pc.product_id = coalesce(p.parent_id, p.id)
    UNION SELECT k.parent_id FROM categories k JOIN up ON k.id = up.id WHERE k.parent_id IS NOT NULL)
  SELECT 1 FROM up WHERE up.id = r.category_id);
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_insert` AFTER INSERT ON `products` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique')) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique')) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_insert_deferred` AFTER INSERT ON `products` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_update` AFTER UPDATE OF `sku`, `name`, `description`, `keywords`, `gtin`, `manufacturer_name`, `manufacturer_pid`, `unit`, `price`, `price_quantity`, `delivery_time_days`, `catalog_id`, `parent_id` ON `products` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_update_deferred` AFTER UPDATE OF `sku`, `name`, `description`, `keywords`, `gtin`, `manufacturer_name`, `manufacturer_pid`, `unit`, `price`, `price_quantity`, `delivery_time_days`, `catalog_id`, `parent_id` ON `products` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique') ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_delete` AFTER DELETE ON `products` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` = OLD.rowid;
	DELETE FROM `variant_completeness` WHERE `product_key` = OLD.rowid;
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_delete_deferred` AFTER DELETE ON `products` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT OLD.rowid UNION SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique') ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_attribute_values_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_insert` AFTER INSERT ON `attribute_values` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_insert_deferred` AFTER INSERT ON `attribute_values` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_attribute_values_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_update` AFTER UPDATE ON `attribute_values` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_update_deferred` AFTER UPDATE ON `attribute_values` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_attribute_values_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_delete` AFTER DELETE ON `attribute_values` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_delete_deferred` AFTER DELETE ON `attribute_values` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_insert` AFTER INSERT ON `translations` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_insert_deferred` AFTER INSERT ON `translations` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_update` AFTER UPDATE ON `translations` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_update_deferred` AFTER UPDATE ON `translations` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_delete` AFTER DELETE ON `translations` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_delete_deferred` AFTER DELETE ON `translations` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_insert` AFTER INSERT ON `media` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_insert_deferred` AFTER INSERT ON `media` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_update` AFTER UPDATE ON `media` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_update_deferred` AFTER UPDATE ON `media` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_delete` AFTER DELETE ON `media` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_delete_deferred` AFTER DELETE ON `media` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_insert` AFTER INSERT ON `product_prices` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_insert_deferred` AFTER INSERT ON `product_prices` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_update` AFTER UPDATE ON `product_prices` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_update_deferred` AFTER UPDATE ON `product_prices` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_delete` AFTER DELETE ON `product_prices` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_delete_deferred` AFTER DELETE ON `product_prices` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_categories_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_categories_insert` AFTER INSERT ON `product_categories` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_categories_insert_deferred` AFTER INSERT ON `product_categories` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_categories_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_categories_delete` AFTER DELETE ON `product_categories` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_categories_delete_deferred` AFTER DELETE ON `product_categories` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_insert` AFTER INSERT ON `classification_link_classes` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_insert_deferred` AFTER INSERT ON `classification_link_classes` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_update` AFTER UPDATE ON `classification_link_classes` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_update_deferred` AFTER UPDATE ON `classification_link_classes` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_delete` AFTER DELETE ON `classification_link_classes` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_delete_deferred` AFTER DELETE ON `classification_link_classes` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_insert` AFTER INSERT ON `classification_link_features` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_insert_deferred` AFTER INSERT ON `classification_link_features` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_update` AFTER UPDATE ON `classification_link_features` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_update_deferred` AFTER UPDATE ON `classification_link_features` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_delete` AFTER DELETE ON `classification_link_features` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_delete_deferred` AFTER DELETE ON `classification_link_features` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_links_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_links_delete` AFTER DELETE ON `classification_links` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_links_delete_deferred` AFTER DELETE ON `classification_links` WHEN EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
-- A score row rewritten in place (the upserts above) moves its counts from the old row to the new.
CREATE TRIGGER `completeness_counts_update` AFTER UPDATE ON `completeness` BEGIN
	UPDATE `completeness_counts` SET `n` = `n` - CASE WHEN `item` = '#score' THEN OLD.score ELSE 1 END
		WHERE `channel_key` = OLD.channel_key AND `lang` = OLD.lang AND (`item` = '#score'
			OR (`item` = '#complete' AND OLD.score = 100)
			OR `item` IN (SELECT j.value FROM json_each(coalesce(OLD.missing, '[]')) j));
	INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
		SELECT NEW.channel_key, NEW.lang, '#score', NEW.score UNION ALL
		SELECT NEW.channel_key, NEW.lang, '#complete', 1 WHERE NEW.score = 100 UNION ALL
		SELECT NEW.channel_key, NEW.lang, j.value, 1 FROM json_each(coalesce(NEW.missing, '[]')) j WHERE 1
		ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;

-- Completeness: a channel can require the order details (issue 32, docs/completeness.md; the
-- fields of migration 0091): `contentUnit`, `contentPerUnit`, `quantityMin`, `quantityInterval`.
-- The view `completeness_checks` (last defined in 0039) is recreated with the four in its field
-- list, a variant without its own value having its master's (as `unit` and `priceQuantity`), and
-- the two product update triggers (last defined in 0069 and 0072) are recreated with the four
-- columns in their UPDATE OF lists, so a change of one rescores the product and its variants.
-- Everything else is exactly as before; no stored score changes (no channel requires the four yet).
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
        WHEN 'deliveryTimeDays' THEN CAST(coalesce(p.delivery_time_days, m.delivery_time_days) AS TEXT)
        WHEN 'contentUnit' THEN coalesce(nullif(p.content_unit, ''), m.content_unit) WHEN 'contentPerUnit' THEN coalesce(nullif(p.content_per_unit, ''), m.content_per_unit)
        WHEN 'quantityMin' THEN coalesce(nullif(p.quantity_min, ''), m.quantity_min) WHEN 'quantityInterval' THEN coalesce(nullif(p.quantity_interval, ''), m.quantity_interval) END, '') <> '' END
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
    WHEN 'range' THEN NOT EXISTS (SELECT 1 FROM classification_links l
        JOIN classification_link_features lf ON lf.link_id = l.id AND lf."group" = r.target AND lf.code = r.ref
        WHERE l.element_id = (CASE WHEN p.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM classification_links x WHERE x.element_id = p.id) THEN p.parent_id ELSE p.id END)
          AND NOT ((CASE WHEN instr(lf.value, '..') > 0 THEN (substr(lf.value, 1, instr(lf.value, '..') - 1) <> '' AND substr(lf.value, 1, instr(lf.value, '..') - 1) GLOB '*[0-9]*' AND substr(lf.value, 1, instr(lf.value, '..') - 1) NOT GLOB '*[^0-9.eE+-]*') AND (substr(lf.value, instr(lf.value, '..') + 2) <> '' AND substr(lf.value, instr(lf.value, '..') + 2) GLOB '*[0-9]*' AND substr(lf.value, instr(lf.value, '..') + 2) NOT GLOB '*[^0-9.eE+-]*') AND (r.min_value IS NULL OR CAST(substr(lf.value, 1, instr(lf.value, '..') - 1) AS REAL) >= r.min_value) AND (r.max_value IS NULL OR CAST(substr(lf.value, 1, instr(lf.value, '..') - 1) AS REAL) <= r.max_value) AND (r.min_value IS NULL OR CAST(substr(lf.value, instr(lf.value, '..') + 2) AS REAL) >= r.min_value) AND (r.max_value IS NULL OR CAST(substr(lf.value, instr(lf.value, '..') + 2) AS REAL) <= r.max_value)
        ELSE (lf.value <> '' AND lf.value GLOB '*[0-9]*' AND lf.value NOT GLOB '*[^0-9.eE+-]*') AND (r.min_value IS NULL OR CAST(lf.value AS REAL) >= r.min_value) AND (r.max_value IS NULL OR CAST(lf.value AS REAL) <= r.max_value) END)
            AND (r.unit IS NULL OR lf.unit IS NULL OR lf.unit = r.unit)))
    WHEN 'releaseRanges' THEN NOT EXISTS (SELECT 1 FROM classification_links l
        JOIN classification_link_classes k ON k.link_id = l.id AND k."group" = r.target AND k.system = r.release
        JOIN classification_releases cr ON cr.status = 'loaded' AND cr.system || '-' || cr.version = r.release
        JOIN release_class_features f ON f.release_id = cr.id AND f.class_code = k.code
        LEFT JOIN release_features g ON g.release_id = cr.id AND g.code = f.feature_code
        JOIN classification_link_features lf ON lf.link_id = l.id AND lf."group" = k."group" AND lf.code = f.feature_code
        WHERE l.element_id = (CASE WHEN p.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM classification_links x WHERE x.element_id = p.id) THEN p.parent_id ELSE p.id END)
          AND (coalesce(f.min_value, g.min_value) IS NOT NULL OR coalesce(f.max_value, g.max_value) IS NOT NULL)
          AND NOT (CASE WHEN instr(lf.value, '..') > 0 THEN (substr(lf.value, 1, instr(lf.value, '..') - 1) <> '' AND substr(lf.value, 1, instr(lf.value, '..') - 1) GLOB '*[0-9]*' AND substr(lf.value, 1, instr(lf.value, '..') - 1) NOT GLOB '*[^0-9.eE+-]*') AND (substr(lf.value, instr(lf.value, '..') + 2) <> '' AND substr(lf.value, instr(lf.value, '..') + 2) GLOB '*[0-9]*' AND substr(lf.value, instr(lf.value, '..') + 2) NOT GLOB '*[^0-9.eE+-]*') AND (coalesce(f.min_value, g.min_value) IS NULL OR CAST(substr(lf.value, 1, instr(lf.value, '..') - 1) AS REAL) >= coalesce(f.min_value, g.min_value)) AND (coalesce(f.max_value, g.max_value) IS NULL OR CAST(substr(lf.value, 1, instr(lf.value, '..') - 1) AS REAL) <= coalesce(f.max_value, g.max_value)) AND (coalesce(f.min_value, g.min_value) IS NULL OR CAST(substr(lf.value, instr(lf.value, '..') + 2) AS REAL) >= coalesce(f.min_value, g.min_value)) AND (coalesce(f.max_value, g.max_value) IS NULL OR CAST(substr(lf.value, instr(lf.value, '..') + 2) AS REAL) <= coalesce(f.max_value, g.max_value))
        ELSE (lf.value <> '' AND lf.value GLOB '*[0-9]*' AND lf.value NOT GLOB '*[^0-9.eE+-]*') AND (coalesce(f.min_value, g.min_value) IS NULL OR CAST(lf.value AS REAL) >= coalesce(f.min_value, g.min_value)) AND (coalesce(f.max_value, g.max_value) IS NULL OR CAST(lf.value AS REAL) <= coalesce(f.max_value, g.max_value)) END))
    ELSE 0 END AS ok
FROM products p
JOIN catalogs c ON c.id = p.catalog_id
JOIN channel_rules r ON r.company_id = p.company_id
LEFT JOIN products m ON m.id = p.parent_id
WHERE (r.category_id IS NULL OR EXISTS (WITH RECURSIVE up(id) AS (
    SELECT pc.category_id FROM product_categories pc WHERE pc.product_id = coalesce(p.parent_id, p.id)
    UNION SELECT k.parent_id FROM categories k JOIN up ON k.id = up.id WHERE k.parent_id IS NOT NULL)
  SELECT 1 FROM up WHERE up.id = r.category_id))
  AND (r.shared IS NULL OR NOT EXISTS (SELECT 1 FROM channel_rules r2 WHERE r2.company_id = r.company_id
    AND r2.channel_key = r.channel_key AND r2.lang = r.lang AND r2.position < r.position AND r2.label = r.label
    AND (r2.category_id IS NULL OR EXISTS (WITH RECURSIVE up(id) AS (
    SELECT pc.category_id FROM product_categories pc WHERE pc.product_id = coalesce(p.parent_id, p.id)
    UNION SELECT k.parent_id FROM categories k JOIN up ON k.id = up.id WHERE k.parent_id IS NOT NULL)
  SELECT 1 FROM up WHERE up.id = r2.category_id))));
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_update` AFTER UPDATE OF `sku`, `name`, `description`, `keywords`, `gtin`, `manufacturer_name`, `manufacturer_pid`, `unit`, `price`, `price_quantity`, `delivery_time_days`, `content_unit`, `content_per_unit`, `quantity_min`, `quantity_interval`, `catalog_id`, `parent_id` ON `products` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
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
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_update_deferred`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_update_deferred` AFTER UPDATE OF `sku`, `name`, `description`, `keywords`, `gtin`, `manufacturer_name`, `manufacturer_pid`, `unit`, `price`, `price_quantity`, `delivery_time_days`, `content_unit`, `content_per_unit`, `quantity_min`, `quantity_interval`, `catalog_id`, `parent_id` ON `products` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique') ON CONFLICT DO NOTHING;
END;

-- Completeness, range rules and shared labels (issue 21, docs/completeness.md):
-- * value ranges of a release's features: `release_features` and `release_class_features` get
--   optional `min_value` / `max_value` (a class's own bounds win over the feature's). No loaded
--   format fills them yet (eCl@ss CSV, ETIM, proficl@ss 7.0 and the BMEcat 2005 classification
--   files this service reads carry no value ranges); rule `releaseRanges` reads whatever is there;
-- * a channel's own range rule for a feature: `channel_rules.min_value`, `max_value`, `unit`
--   (kind `range`, target = the classification system, ref = the feature code);
-- * `channel_rules.shared`: set when an earlier rule of the same channel and language has the
--   same label (two requirements on the same thing for different category subtrees): the view
--   then keeps only the first that applies to a product, so the label counts once.
-- The view is replaced; the triggers read it by name and need no change.
ALTER TABLE `release_features` ADD `min_value` real;
--> statement-breakpoint
ALTER TABLE `release_features` ADD `max_value` real;
--> statement-breakpoint
ALTER TABLE `release_class_features` ADD `min_value` real;
--> statement-breakpoint
ALTER TABLE `release_class_features` ADD `max_value` real;
--> statement-breakpoint
ALTER TABLE `channel_rules` ADD `min_value` real;
--> statement-breakpoint
ALTER TABLE `channel_rules` ADD `max_value` real;
--> statement-breakpoint
ALTER TABLE `channel_rules` ADD `unit` text;
--> statement-breakpoint
ALTER TABLE `channel_rules` ADD `shared` integer;
--> statement-breakpoint
-- Rules stored before this migration that repeat an earlier label.
UPDATE `channel_rules` SET `shared` = 1 WHERE EXISTS (SELECT 1 FROM `channel_rules` r2
	WHERE r2.company_id = `channel_rules`.company_id AND r2.channel_key = `channel_rules`.channel_key
	AND r2.lang = `channel_rules`.lang AND r2.label = `channel_rules`.label AND r2.position < `channel_rules`.position);
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


-- Completeness scoring of bulk writes in one pass (issue 19, docs/import.md "Throughput"). The
-- row triggers of 0026 recompute a master's scores once per row written: an import batch of 500
-- products with price lists, media links and features fired them tens of thousands of times
-- (each a DELETE and an INSERT over `completeness_checks`, with a statement journal), whether or
-- not the company has a channel. A write that scores its masters itself (upsertRecords: imports,
-- UpsertProducts) now puts a row into `completeness_deferred` first, writes, recomputes the
-- masters it touched in two set-based statements, and deletes the row again, all in the same
-- transaction (one db.batch), so no other write ever sees the row and the triggers stay THE rule
-- for every other write. Deleting a product still scores through its trigger (not deferred).
CREATE TABLE `completeness_deferred` (
	`id` integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP TRIGGER `completeness_products_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_insert` AFTER INSERT ON `products`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT NEW.rowid UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT NEW.rowid UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_products_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_update` AFTER UPDATE OF `sku`, `name`, `description`, `keywords`, `gtin`, `manufacturer_name`, `manufacturer_pid`, `unit`, `price`, `price_quantity`, `delivery_time_days`, `catalog_id`, `parent_id` ON `products`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT NEW.rowid UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT NEW.rowid UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_attribute_values_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_insert` AFTER INSERT ON `attribute_values`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_attribute_values_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_update` AFTER UPDATE ON `attribute_values`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_attribute_values_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_delete` AFTER DELETE ON `attribute_values`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_translations_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_insert` AFTER INSERT ON `translations`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_translations_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_update` AFTER UPDATE ON `translations`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_translations_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_delete` AFTER DELETE ON `translations`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_media_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_insert` AFTER INSERT ON `media`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_media_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_update` AFTER UPDATE ON `media`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_media_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_delete` AFTER DELETE ON `media`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_product_prices_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_insert` AFTER INSERT ON `product_prices`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_product_prices_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_update` AFTER UPDATE ON `product_prices`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.product_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id AND parent_id IS NULL UNION SELECT rowid FROM products WHERE id = NEW.product_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_product_prices_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_delete` AFTER DELETE ON `product_prices`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_classification_link_classes_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_insert` AFTER INSERT ON `classification_link_classes`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_classification_link_classes_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_update` AFTER UPDATE ON `classification_link_classes`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_classification_link_classes_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_delete` AFTER DELETE ON `classification_link_classes`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_classification_link_features_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_insert` AFTER INSERT ON `classification_link_features`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_classification_link_features_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_update` AFTER UPDATE ON `classification_link_features`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_classification_link_features_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_delete` AFTER DELETE ON `classification_link_features`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_classification_links_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_links_delete` AFTER DELETE ON `classification_links`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_deferred`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id AND parent_id IS NULL) GROUP BY product_key, channel_key, lang;
END;

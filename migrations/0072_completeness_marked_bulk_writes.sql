-- Completeness: a bulk write that names the products it touches marks them itself.
--
-- The `_deferred` triggers (0028 and later) mark each product in `completeness_dirty` once per
-- row a batch writes (every price, media, value, feature and placement row of an import) while
-- `completeness_defer` holds a row. They now fire only while that row is `id` = 1 (what
-- withDeferredRescore inserts, as before). With `id` = 2 neither they nor the immediate triggers
-- fire: the writer (the upsert of an import batch, src/db/score-refresh.ts withMarkedRescore)
-- marks the products it wrote, their variants and the products sharing their GTINs in one
-- statement, a superset of what the triggers would have marked, and the batch rescores the
-- marked products at its end as before. Nothing else changes: the trigger bodies are the same.

DROP TRIGGER IF EXISTS `completeness_attribute_values_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_delete_deferred` AFTER DELETE ON `attribute_values` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_attribute_values_insert_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_insert_deferred` AFTER INSERT ON `attribute_values` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_attribute_values_update_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_update_deferred` AFTER UPDATE ON `attribute_values` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_delete_deferred` AFTER DELETE ON `classification_link_classes` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_insert_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_insert_deferred` AFTER INSERT ON `classification_link_classes` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_update_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_update_deferred` AFTER UPDATE ON `classification_link_classes` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_delete_deferred` AFTER DELETE ON `classification_link_features` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_insert_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_insert_deferred` AFTER INSERT ON `classification_link_features` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_update_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_update_deferred` AFTER UPDATE ON `classification_link_features` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_links_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_classification_links_delete_deferred` AFTER DELETE ON `classification_links` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_media_delete_deferred` AFTER DELETE ON `media` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_insert_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_media_insert_deferred` AFTER INSERT ON `media` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_update_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_media_update_deferred` AFTER UPDATE ON `media` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_categories_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_product_categories_delete_deferred` AFTER DELETE ON `product_categories` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_categories_insert_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_product_categories_insert_deferred` AFTER INSERT ON `product_categories` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_delete_deferred` AFTER DELETE ON `product_prices` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_insert_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_insert_deferred` AFTER INSERT ON `product_prices` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_update_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_update_deferred` AFTER UPDATE ON `product_prices` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_products_delete_deferred` AFTER DELETE ON `products` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT OLD.rowid UNION SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique') ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_insert_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_products_insert_deferred` AFTER INSERT ON `products` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_update_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_products_update_deferred` AFTER UPDATE OF `sku`, `name`, `description`, `keywords`, `gtin`, `manufacturer_name`, `manufacturer_pid`, `unit`, `price`, `price_quantity`, `delivery_time_days`, `catalog_id`, `parent_id` ON `products` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique') ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_delete_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_translations_delete_deferred` AFTER DELETE ON `translations` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_insert_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_translations_insert_deferred` AFTER INSERT ON `translations` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_update_deferred`;--> statement-breakpoint
CREATE TRIGGER `completeness_translations_update_deferred` AFTER UPDATE ON `translations` WHEN EXISTS (SELECT 1 FROM `completeness_defer` WHERE `id` = 1) BEGIN
	INSERT INTO `completeness_dirty` (`product_key`) SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id ON CONFLICT DO NOTHING;
END;

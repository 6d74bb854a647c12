-- Partial indexes of the masters a product-list filter names when it names few of them (docs/search.md,
-- "Filter plans"): a status other than active, no GTIN, no price. The list counts them and, at most
-- 5,000, reads those products and sorts them instead of walking a sort order's index. Only such rows
-- are indexed, so a catalog that is mostly active and complete keeps these indexes small. The filter's
-- statements repeat each WHERE word for word (SQLite uses a partial index only then).
CREATE INDEX `products_filter_status_idx` ON `products` (`catalog_id`,`status`) WHERE parent_id IS NULL AND status <> 'active';--> statement-breakpoint
CREATE INDEX `products_filter_no_gtin_idx` ON `products` (`catalog_id`) WHERE parent_id IS NULL AND (gtin IS NULL OR gtin = '');--> statement-breakpoint
CREATE INDEX `products_filter_no_price_idx` ON `products` (`catalog_id`) WHERE parent_id IS NULL AND (price IS NULL OR price = '');
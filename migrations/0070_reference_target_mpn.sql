-- References that name their target by manufacturer product number (issue 32, docs/data-model.md
-- "Product references"): an ETIM xChange ProductRelation names the related product by its
-- RelatedManufacturerProductNumber, not by the distributor's item number (our SKU).
-- `target_kind` says what `target_sku` holds: 'sku' (every existing row) or 'mpn'; an 'mpn'
-- reference resolves to the one product of its catalog with that manufacturer_pid (the one
-- master when masters and variants share it), and stays pending while none or several do.
ALTER TABLE `product_references` ADD `target_kind` text DEFAULT 'sku' NOT NULL;
--> statement-breakpoint
-- Every 'mpn' reference by catalog and number, pending or resolved: writing a product with a
-- manufacturer number re-resolves both (a second product with the number makes it ambiguous).
CREATE INDEX `product_references_mpn_idx` ON `product_references` (`catalog_id`,`target_sku`) WHERE target_kind = 'mpn';
--> statement-breakpoint
-- The products of a catalog by manufacturer number (no index had it).
CREATE INDEX `products_catalog_mpn_idx` ON `products` (`catalog_id`,`manufacturer_pid`) WHERE manufacturer_pid IS NOT NULL;

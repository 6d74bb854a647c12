-- Product references (issue 19 part 4, docs/data-model.md "Product references"): typed links
-- from a product to a target SKU of the same catalog, kept as written. `target_product_id` is
-- the product that SKU names now, or NULL while the SKU is not (yet) in the catalog (pending);
-- deleting the target sets it back to NULL, so the reference waits for the SKU to come back.
CREATE TABLE `product_references` (
	`product_id` text NOT NULL,
	`position` integer NOT NULL,
	`catalog_id` text NOT NULL,
	`type` text NOT NULL,
	`target_sku` text NOT NULL,
	`target_product_id` text,
	`quantity` integer,
	PRIMARY KEY(`product_id`, `position`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`target_product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `product_references_target_idx` ON `product_references` (`target_product_id`) WHERE target_product_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `product_references_pending_idx` ON `product_references` (`catalog_id`,`target_sku`) WHERE target_product_id IS NULL;

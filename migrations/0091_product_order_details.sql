-- A product's order details beyond ORDER_UNIT and PRICE_QUANTITY (issue 32, docs/data-model.md
-- "Order details"): BMEcat's CONTENT_UNIT (a UN/ECE Recommendation 20 code, as `unit`),
-- NO_CU_PER_OU (content units per order unit), QUANTITY_MIN and QUANTITY_INTERVAL. The three
-- quantities are positive decimals kept exactly as written (text, as prices). Nullable: a product
-- written before has none, and the exports then write CONTENT_UNIT = ORDER_UNIT and NO_CU_PER_OU 1
-- as before.
ALTER TABLE `products` ADD `content_unit` text;
--> statement-breakpoint
ALTER TABLE `products` ADD `content_per_unit` text;
--> statement-breakpoint
ALTER TABLE `products` ADD `quantity_min` text;
--> statement-breakpoint
ALTER TABLE `products` ADD `quantity_interval` text;

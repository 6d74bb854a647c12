-- Price lists (issue 19 part 3, docs/data-model.md "Prices"): a product's prices, one row per
-- PRODUCT_PRICE, in file order. WITHOUT ROWID like the other composite-key tables: the key is
-- the table. No company_id: the tenant is the product's, which every read and write checks.
-- `amount` NULL marks the default row, whose amount is `products.price` (one home for the
-- default net price, so SetValue and ProductDto work as before). Decimals are text, as `price`.
CREATE TABLE `product_prices` (
	`product_id` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`amount` text,
	`currency` text,
	`tax` text,
	`factor` text,
	`lower_bound` text,
	`territory` text,
	`valid_from` text,
	`valid_to` text,
	`daily` integer,
	PRIMARY KEY(`product_id`, `position`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;

-- Feature blocks of systems the classification model does not take (docs/import.md "Feature
-- systems"): UNSPSC, nexMart, `udf_*`, a supplier's own, eCl@ss Advanced trees. One row per
-- PRODUCT_FEATURES / ARTICLE_FEATURES block, in the file's order; the block's features are one
-- JSON text (a block is read, written and replaced whole, so rows per feature would only cost
-- keys and statements). The product's company is the tenant; rows go with their product.
CREATE TABLE `product_feature_blocks` (
	`product_id` text NOT NULL,
	`position` integer NOT NULL,
	`system` text NOT NULL,
	`group_id` text,
	`group_id2` text,
	`group_name` text,
	`features` text NOT NULL,
	PRIMARY KEY(`product_id`, `position`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;

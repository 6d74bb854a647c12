-- PRICE_BASE on a price (issue 19, docs/data-model.md "Prices"): the amount is for another
-- quantity or unit than the order unit ("12.50 per 100 m"). Three nullable columns, all NULL for
-- a price per order unit: the unit value (BMEcat 2005's PRICE_UNIT_VALUE, e.g. 100), the unit
-- (PRICE_UNIT, a UN/ECE Rec. 20 code such as MTR) and the unit factor (PRICE_UNIT_FACTOR).
-- Decimals are kept as text like the other amounts of the table.
ALTER TABLE `product_prices` ADD `base_value` text;
--> statement-breakpoint
ALTER TABLE `product_prices` ADD `base_unit` text;
--> statement-breakpoint
ALTER TABLE `product_prices` ADD `base_factor` text;

-- PRICE_FLAG on a price (issue 32, docs/data-model.md "Prices"): whether the amount includes
-- freight, packing, insurance or duty (`incl_freight` ...), as the JSON text of an object
-- `{"incl_freight":true}` in the file's order. NULL for a price without flags (nearly every
-- price): rows written before cost nothing, and their history entries, sync records and
-- fingerprints stay what they were.
ALTER TABLE `product_prices` ADD `flags` text;
--> statement-breakpoint
-- PRICE_FORMULA (BMEcat 2005) in place of a price's amount: the formula id and its parameters as
-- JSON text `{"id":"F1","parameters":[{"symbol":"m","value":"3"}]}`; NULL for every other price.
ALTER TABLE `product_prices` ADD `formula` text;

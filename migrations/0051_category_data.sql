-- A category keeps what a BMEcat CATALOG_STRUCTURE carries besides its name, description,
-- order and media (issue 32, docs/data-model.md "Category data"): the group's KEYWORDs (joined
-- by ", ", as a product's keywords column), its FEATUREs (the JSON list of a feature block's
-- features, src/model/feature-block-types.ts) and its USER_DEFINED_EXTENSIONS content as
-- verbatim XML. All NULL for a category without them: rows written before cost nothing
-- (SQLite reads absent trailing columns as NULL).
ALTER TABLE `categories` ADD `keywords` text;--> statement-breakpoint
ALTER TABLE `categories` ADD `features` text;--> statement-breakpoint
ALTER TABLE `categories` ADD `udx` text;

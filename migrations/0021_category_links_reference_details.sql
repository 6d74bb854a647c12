-- Issue 19 (docs/import.md "Category media", docs/data-model.md "References"):
-- A BMEcat CATALOG_STRUCTURE's MIME_INFO links, staged with the group (JSON list of
-- {url, purpose, contentType, description, mimeCode, alt}) and created as links of the
-- category the group becomes. NULL for groups without links.
ALTER TABLE `import_groups` ADD `links` text;
--> statement-breakpoint
-- A reference's REFERENCE_DESCR and the catalog it points into (CATALOG_ID, CATALOG_VERSION of
-- PRODUCT_REFERENCE / ARTICLE_REFERENCE), kept to be written back. NULL when not given.
ALTER TABLE `product_references` ADD `descr` text;
--> statement-breakpoint
ALTER TABLE `product_references` ADD `target_catalog` text;
--> statement-breakpoint
ALTER TABLE `product_references` ADD `target_catalog_version` text;

-- Media links (docs/data-model.md, "Media"): a media row with a `url` is a link to a file kept
-- elsewhere (a supplier's absolute MIME_SOURCE, an ETIM UDX.EDXF.MIME) instead of an uploaded
-- file: no object is stored for it. Links and files share one ordered list per element, so the
-- editor and the exports keep the supplier's order. `mime_code` is the ETIM guideline's MIME code
-- (MD01 ...), `alt` the BMEcat MIME_ALT text.
ALTER TABLE `media` ADD `url` text;
--> statement-breakpoint
ALTER TABLE `media` ADD `mime_code` text;
--> statement-breakpoint
ALTER TABLE `media` ADD `alt` text;
--> statement-breakpoint
-- A product's USER_DEFINED_EXTENSIONS as read from a BMEcat file: the verbatim XML of the
-- element's content (compact, prefixes as written), written back by the BMEcat exports. A row
-- only for products that carried one.
CREATE TABLE `product_udx` (
	`product_id` text PRIMARY KEY NOT NULL,
	`xml` text NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;

-- Content languages (docs/languages.md). A company enables its languages (ISO 639-2 codes as
-- BMEcat writes them) and names a default; a catalog names the languages it publishes, the first
-- of which is `language`, its default. The element's own columns (products.name, ...) hold the
-- catalog's default language; every other language of a localizable field is one row of
-- `translations`, so writing one translation rewrites no other, and a language-neutral field
-- costs nothing per language.

ALTER TABLE `companies` ADD `languages` text DEFAULT '["deu"]' NOT NULL;
--> statement-breakpoint
ALTER TABLE `companies` ADD `default_language` text DEFAULT 'deu' NOT NULL;
--> statement-breakpoint
ALTER TABLE `catalogs` ADD `languages` text DEFAULT '["deu"]' NOT NULL;
--> statement-breakpoint
ALTER TABLE `attributes` ADD `localizable` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- A catalog publishes its one language until someone adds more.
UPDATE `catalogs` SET `languages` = json_array(`language`);
--> statement-breakpoint
-- A company starts with the languages its catalogs are in; the default is its oldest catalog's.
UPDATE `companies` SET
	`default_language` = coalesce(
		(SELECT `language` FROM `catalogs` WHERE `company_id` = `companies`.`id` ORDER BY `created_at`, `id` LIMIT 1),
		'deu'),
	`languages` = coalesce(
		(SELECT json_group_array(`language`) FROM (
			SELECT DISTINCT `language` FROM `catalogs` WHERE `company_id` = `companies`.`id`)),
		'["deu"]');
--> statement-breakpoint
UPDATE `companies` SET `languages` = json_array(`default_language`) WHERE `languages` = '[]';
--> statement-breakpoint
-- One translation of one field of one element (a product, variant, category, catalog or media
-- entry). `field` is the API's field name (`name`, `description`, `keywords`, an attribute code
-- as `values.<code>`, a feature's free text as `details.<GROUP>.<code>`). The tenant is the
-- element's: every read reaches these rows through a tenant-checked element.
CREATE TABLE `translations` (
	`element_id` text NOT NULL,
	`field` text NOT NULL,
	`lang` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`element_id`, `field`, `lang`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Translations go with their element, whatever deletes it (a catalog's cascade included).
CREATE TRIGGER `products_translations_delete` AFTER DELETE ON `products` BEGIN
	DELETE FROM `translations` WHERE `element_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `categories_translations_delete` AFTER DELETE ON `categories` BEGIN
	DELETE FROM `translations` WHERE `element_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `media_translations_delete` AFTER DELETE ON `media` BEGIN
	DELETE FROM `translations` WHERE `element_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `catalogs_translations_delete` AFTER DELETE ON `catalogs` BEGIN
	DELETE FROM `translations` WHERE `element_id` = OLD.`id`;
END;

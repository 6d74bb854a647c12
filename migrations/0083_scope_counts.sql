-- Counts of a category-scoped member kept by triggers (docs/teams.md "Counts", issue 33): a
-- member's scope counted from their products took seconds at 1M (100,000 masters walked per
-- GetStats). A **scope set** is one company's set of scoped root categories (the members with
-- the same roots share it); per set and catalog it keeps the masters placed in any of the roots'
-- subtrees, each counted once however many placements it has there, and their variants; per set
-- and category the placements of those masters (the tree's narrowed `productCount`). Sets are
-- made by the first count of a scope (src/db/scope-counts.ts) and kept exact from then on by
-- the triggers below, in the statement of every write.
--
-- The subtree test needs a category's ancestors in a trigger, where no recursive query may run:
-- `category_ancestors` is the closure of `categories.parent_id` (each category with itself and
-- every category above it), kept by the categories' own triggers.
CREATE TABLE `category_ancestors` (
	`category_id` text NOT NULL,
	`ancestor_id` text NOT NULL,
	PRIMARY KEY(`category_id`, `ancestor_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `category_ancestors_ancestor_idx` ON `category_ancestors` (`ancestor_id`);
--> statement-breakpoint
INSERT INTO `category_ancestors` (`category_id`, `ancestor_id`)
WITH RECURSIVE `up`(`id`, `a`, `depth`) AS (
	SELECT `id`, `id`, 0 FROM `categories`
	UNION ALL SELECT `up`.`id`, `c`.`parent_id`, `up`.`depth` + 1 FROM `up` JOIN `categories` `c` ON `c`.`id` = `up`.`a`
	WHERE `c`.`parent_id` IS NOT NULL AND `up`.`depth` < 100
) SELECT DISTINCT `id`, `a` FROM `up`;
--> statement-breakpoint
-- A new category has its parent's ancestors. Categories inserted before their parent (a cell
-- move copies in any order) get the new category's ancestors too, so the closure is whole
-- whatever the order.
CREATE TRIGGER `category_ancestors_insert` AFTER INSERT ON `categories` BEGIN
	INSERT OR IGNORE INTO `category_ancestors` (`category_id`, `ancestor_id`)
	SELECT NEW.`id`, NEW.`id`
	UNION ALL SELECT NEW.`id`, `ancestor_id` FROM `category_ancestors` WHERE `category_id` = NEW.`parent_id`;
	INSERT OR IGNORE INTO `category_ancestors` (`category_id`, `ancestor_id`)
	SELECT `d`.`category_id`, `a`.`ancestor_id` FROM `categories` `ch`
	JOIN `category_ancestors` `d` ON `d`.`ancestor_id` = `ch`.`id`
	JOIN `category_ancestors` `a` ON `a`.`category_id` = NEW.`id`
	WHERE `ch`.`parent_id` = NEW.`id`;
END;
--> statement-breakpoint
CREATE TABLE `scope_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	-- the roots' ids, sorted and joined by ','
	`key` text NOT NULL,
	-- 1 once the counts were made; 1 in `stale` makes them again (trigger scope_sets_rebuild)
	`built` integer DEFAULT 0 NOT NULL,
	`stale` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scope_sets_company_key_idx` ON `scope_sets` (`company_id`, `key`);
--> statement-breakpoint
CREATE TABLE `scope_set_roots` (
	`set_id` integer NOT NULL REFERENCES `scope_sets`(`id`) ON DELETE cascade,
	`category_id` text NOT NULL,
	PRIMARY KEY(`set_id`, `category_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `scope_set_roots_category_idx` ON `scope_set_roots` (`category_id`);
--> statement-breakpoint
CREATE TABLE `scope_set_counts` (
	`set_id` integer NOT NULL REFERENCES `scope_sets`(`id`) ON DELETE cascade,
	`catalog_id` text NOT NULL,
	`masters` integer DEFAULT 0 NOT NULL,
	`variants` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`set_id`, `catalog_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `scope_set_category_counts` (
	`set_id` integer NOT NULL REFERENCES `scope_sets`(`id`) ON DELETE cascade,
	`catalog_id` text NOT NULL,
	`category_id` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`set_id`, `catalog_id`, `category_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `scope_set_completeness` (
	`set_id` integer NOT NULL REFERENCES `scope_sets`(`id`) ON DELETE cascade,
	`channel_key` integer NOT NULL,
	`lang` text NOT NULL,
	-- the items of `completeness_counts`: '', '#complete', '#score', a missing label, '#variants', '#variantsComplete'
	`item` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`set_id`, `channel_key`, `lang`, `item`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Scratch rows of one trigger, empty between statements: the sets a placement's master enters or
-- leaves, and the masters of a set being counted.
CREATE TABLE `scope_set_moving` (`set_id` integer PRIMARY KEY);
--> statement-breakpoint
CREATE TABLE `scope_set_members` (
	`set_id` integer NOT NULL,
	`product_id` text NOT NULL,
	PRIMARY KEY(`set_id`, `product_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- (Re)makes a set's counts from its products: when it is made, and when a category move
-- changes which categories lie below its roots. The cost grows with the scope (the old count).
CREATE TRIGGER `scope_sets_rebuild` AFTER UPDATE OF `stale` ON `scope_sets` WHEN NEW.`stale` = 1 BEGIN
	DELETE FROM `scope_set_counts` WHERE `set_id` = NEW.`id`;
	DELETE FROM `scope_set_category_counts` WHERE `set_id` = NEW.`id`;
	DELETE FROM `scope_set_completeness` WHERE `set_id` = NEW.`id`;
	INSERT OR IGNORE INTO `scope_set_members` (`set_id`, `product_id`)
	SELECT NEW.`id`, `p`.`id` FROM `scope_set_roots` `r`
	JOIN `category_ancestors` `a` ON `a`.`ancestor_id` = `r`.`category_id`
	JOIN `product_categories` `pc` ON `pc`.`category_id` = `a`.`category_id`
	JOIN `products` `p` ON `p`.`id` = `pc`.`product_id`
	WHERE `r`.`set_id` = NEW.`id` AND `p`.`parent_id` IS NULL AND `p`.`company_id` = NEW.`company_id`;
	INSERT INTO `scope_set_counts` (`set_id`, `catalog_id`, `masters`, `variants`)
	SELECT NEW.`id`, `p`.`catalog_id`, count(*), coalesce(sum((SELECT count(*) FROM `products` `v` WHERE `v`.`parent_id` = `p`.`id`)), 0)
	FROM `scope_set_members` `m` JOIN `products` `p` ON `p`.`id` = `m`.`product_id`
	WHERE `m`.`set_id` = NEW.`id` GROUP BY `p`.`catalog_id`;
	INSERT INTO `scope_set_category_counts` (`set_id`, `catalog_id`, `category_id`, `n`)
	SELECT NEW.`id`, `p`.`catalog_id`, `pc`.`category_id`, count(*)
	FROM `scope_set_members` `m` JOIN `products` `p` ON `p`.`id` = `m`.`product_id`
	JOIN `product_categories` `pc` ON `pc`.`product_id` = `p`.`id`
	WHERE `m`.`set_id` = NEW.`id` GROUP BY `p`.`catalog_id`, `pc`.`category_id`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT NEW.`id`, `c`.`channel_key`, `c`.`lang`, `k`.`item`, sum(CASE `k`.`item` WHEN '' THEN 1 WHEN '#score' THEN `c`.`score` ELSE `c`.`score` = 100 END)
	FROM `scope_set_members` `m` JOIN `products` `p` ON `p`.`id` = `m`.`product_id`
	JOIN `completeness` `c` ON `c`.`product_key` = `p`.`rowid`, (SELECT '' AS `item` UNION ALL SELECT '#score' UNION ALL SELECT '#complete') `k`
	WHERE `m`.`set_id` = NEW.`id` GROUP BY `c`.`channel_key`, `c`.`lang`, `k`.`item`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT NEW.`id`, `c`.`channel_key`, `c`.`lang`, `j`.`value`, count(*)
	FROM `scope_set_members` `m` JOIN `products` `p` ON `p`.`id` = `m`.`product_id`
	JOIN `completeness` `c` ON `c`.`product_key` = `p`.`rowid`, json_each(coalesce(`c`.`missing`, '[]')) `j`
	WHERE `m`.`set_id` = NEW.`id` GROUP BY `c`.`channel_key`, `c`.`lang`, `j`.`value`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT NEW.`id`, `c`.`channel_key`, `c`.`lang`, `k`.`item`, sum(CASE `k`.`item` WHEN '#variants' THEN 1 ELSE `c`.`score` = 100 END)
	FROM `scope_set_members` `m` JOIN `products` `v` ON `v`.`parent_id` = `m`.`product_id`
	JOIN `variant_completeness` `c` ON `c`.`product_key` = `v`.`rowid`, (SELECT '#variants' AS `item` UNION ALL SELECT '#variantsComplete') `k`
	WHERE `m`.`set_id` = NEW.`id` GROUP BY `c`.`channel_key`, `c`.`lang`, `k`.`item`;
	DELETE FROM `scope_set_members` WHERE `set_id` = NEW.`id`;
	UPDATE `scope_sets` SET `stale` = 0, `built` = 1 WHERE `id` = NEW.`id`;
END;
--> statement-breakpoint
-- A move re-links the moved subtree to its new ancestors; the sets with a root above the old
-- or the new place are made again (marked 2 first, while the old ancestors are still linked).
CREATE TRIGGER `category_ancestors_move` AFTER UPDATE OF `parent_id` ON `categories`
WHEN NEW.`parent_id` IS NOT OLD.`parent_id` BEGIN
	UPDATE `scope_sets` SET `stale` = 2 WHERE `id` IN (SELECT DISTINCT `r`.`set_id` FROM `category_ancestors` `a` JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `a`.`category_id` = OLD.`parent_id`);
	DELETE FROM `category_ancestors`
	WHERE `category_id` IN (SELECT `category_id` FROM `category_ancestors` WHERE `ancestor_id` = NEW.`id`)
		AND `ancestor_id` IN (SELECT `ancestor_id` FROM `category_ancestors` WHERE `category_id` = NEW.`id` AND `ancestor_id` <> NEW.`id`);
	INSERT OR IGNORE INTO `category_ancestors` (`category_id`, `ancestor_id`)
	SELECT `d`.`category_id`, `a`.`ancestor_id` FROM `category_ancestors` `d`
	JOIN `category_ancestors` `a` ON `a`.`category_id` = NEW.`parent_id`
	WHERE `d`.`ancestor_id` = NEW.`id`;
	UPDATE `scope_sets` SET `stale` = 1 WHERE `stale` = 2 OR `id` IN (SELECT DISTINCT `r`.`set_id` FROM `category_ancestors` `a` JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `a`.`category_id` = NEW.`parent_id`);
END;
--> statement-breakpoint
-- A category's placements go before the category (not by the cascade after it), so their
-- triggers below still find the category's ancestors and the product; its closure rows go after.
CREATE TRIGGER `scope_counts_category_delete` BEFORE DELETE ON `categories`
WHEN EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = OLD.`company_id`) BEGIN
	DELETE FROM `product_categories` WHERE `category_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `category_ancestors_delete` AFTER DELETE ON `categories` BEGIN
	DELETE FROM `category_ancestors` WHERE `category_id` = OLD.`id`;
END;
--> statement-breakpoint
-- Likewise a master's placements go before the master row (its score rows leave its sets
-- there; their own deletes then find no set). A variant's score rows leave its master's sets
-- before the variant row goes, for the same reason.
CREATE TRIGGER `scope_counts_product_delete` BEFORE DELETE ON `products`
WHEN OLD.`parent_id` IS NULL AND EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = OLD.`company_id`) BEGIN
	DELETE FROM `product_categories` WHERE `product_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `scope_counts_variant_scores_delete` BEFORE DELETE ON `products`
WHEN OLD.`parent_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = OLD.`company_id`) BEGIN
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, `c`.`channel_key`, `c`.`lang`, `k`.`item`, -1 * CASE `k`.`item` WHEN '#variants' THEN 1 ELSE `c`.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `product_categories` `o`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `o`.`product_id` = OLD.`parent_id`) `s`, `variant_completeness` `c`, (SELECT '#variants' AS `item` UNION ALL SELECT '#variantsComplete') `k`
	WHERE `c`.`product_key` = OLD.`rowid`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
-- A master placed in c enters every set whose subtrees hold c and none of its other placements:
-- it counts there once, with its variants and its score rows, and each of its placements counts
-- in that set's tree. In every set it is in, the new placement counts.
CREATE TRIGGER `scope_counts_placement_insert` AFTER INSERT ON `product_categories`
WHEN (SELECT `parent_id` FROM `products` WHERE `id` = NEW.`product_id`) IS NULL AND EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = (SELECT `company_id` FROM `categories` WHERE `id` = NEW.`category_id`))
BEGIN
	INSERT INTO `scope_set_moving` (`set_id`)
	SELECT `s`.`set_id` FROM (SELECT DISTINCT `r`.`set_id` FROM `category_ancestors` `a` JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `a`.`category_id` = NEW.`category_id`) `s`
	WHERE NOT EXISTS (
		SELECT 1 FROM `product_categories` `x` JOIN `category_ancestors` `xa` ON `xa`.`category_id` = `x`.`category_id`
		JOIN `scope_set_roots` `xr` ON `xr`.`category_id` = `xa`.`ancestor_id` AND `xr`.`set_id` = `s`.`set_id`
		WHERE `x`.`product_id` = NEW.`product_id` AND `x`.`category_id` <> NEW.`category_id`);
	INSERT INTO `scope_set_category_counts` (`set_id`, `catalog_id`, `category_id`, `n`)
	SELECT `m`.`set_id`, `p`.`catalog_id`, `o`.`category_id`, 1
	FROM `scope_set_moving` `m`, `products` `p`
	JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id` AND `o`.`category_id` <> NEW.`category_id`
	WHERE `p`.`id` = NEW.`product_id`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_counts` (`set_id`, `catalog_id`, `masters`, `variants`)
	SELECT `m`.`set_id`, `p`.`catalog_id`, 1, (SELECT count(*) FROM `products` `v` WHERE `v`.`parent_id` = `p`.`id`)
	FROM `scope_set_moving` `m`, `products` `p` WHERE `p`.`id` = NEW.`product_id`
	ON CONFLICT DO UPDATE SET `masters` = `masters` + 1, `variants` = `variants` + excluded.`variants`;
	INSERT INTO `scope_set_category_counts` (`set_id`, `catalog_id`, `category_id`, `n`)
	SELECT `s`.`set_id`, `p`.`catalog_id`, NEW.`category_id`, 1
	FROM (SELECT DISTINCT `r`.`set_id` FROM `product_categories` `o`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `o`.`product_id` = NEW.`product_id`) `s`, `products` `p` WHERE `p`.`id` = NEW.`product_id`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, `c`.`channel_key`, `c`.`lang`, `k`.`item`, 1 * CASE `k`.`item` WHEN '' THEN 1 WHEN '#score' THEN `c`.`score` ELSE `c`.`score` = 100 END
	FROM (SELECT `set_id` FROM `scope_set_moving`) `s`, `products` `p` JOIN `completeness` `c` ON `c`.`product_key` = `p`.`rowid`, (SELECT '' AS `item` UNION ALL SELECT '#score' UNION ALL SELECT '#complete') `k`
	WHERE `p`.`id` = NEW.`product_id`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, `c`.`channel_key`, `c`.`lang`, `j`.`value`, 1
	FROM (SELECT `set_id` FROM `scope_set_moving`) `s`, `products` `p` JOIN `completeness` `c` ON `c`.`product_key` = `p`.`rowid`, json_each(coalesce(`c`.`missing`, '[]')) `j`
	WHERE `p`.`id` = NEW.`product_id`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, `c`.`channel_key`, `c`.`lang`, `k`.`item`, 1 * CASE `k`.`item` WHEN '#variants' THEN 1 ELSE `c`.`score` = 100 END
	FROM (SELECT `set_id` FROM `scope_set_moving`) `s`, `products` `v` JOIN `variant_completeness` `c` ON `c`.`product_key` = `v`.`rowid`, (SELECT '#variants' AS `item` UNION ALL SELECT '#variantsComplete') `k`
	WHERE `v`.`parent_id` = NEW.`product_id`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	DELETE FROM `scope_set_moving`;
END;
--> statement-breakpoint
-- The mirror image: the placement leaves the tree counts of every set the master was in; a set
-- none of its remaining placements lies in loses the master, its variants, its score rows and
-- its other placements.
CREATE TRIGGER `scope_counts_placement_delete` AFTER DELETE ON `product_categories`
WHEN (SELECT `parent_id` FROM `products` WHERE `id` = OLD.`product_id`) IS NULL AND EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = (SELECT `company_id` FROM `categories` WHERE `id` = OLD.`category_id`))
BEGIN
	INSERT INTO `scope_set_moving` (`set_id`)
	SELECT DISTINCT `r`.`set_id` FROM `category_ancestors` `a` JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `a`.`category_id` = OLD.`category_id`
	EXCEPT SELECT DISTINCT `r`.`set_id` FROM `product_categories` `o`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `o`.`product_id` = OLD.`product_id`;
	UPDATE `scope_set_category_counts` SET `n` = `n` - 1
	WHERE `category_id` = OLD.`category_id`
		AND `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
		AND `set_id` IN (SELECT DISTINCT `r`.`set_id` FROM `category_ancestors` `a` JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `a`.`category_id` = OLD.`category_id`
			UNION SELECT DISTINCT `r`.`set_id` FROM `product_categories` `o`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `o`.`product_id` = OLD.`product_id`);
	UPDATE `scope_set_category_counts` SET `n` = `n` - 1
	WHERE `category_id` IN (SELECT `category_id` FROM `product_categories` WHERE `product_id` = OLD.`product_id`)
		AND `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
		AND `set_id` IN (SELECT `set_id` FROM `scope_set_moving`);
	UPDATE `scope_set_counts` SET `masters` = `masters` - 1,
		`variants` = `variants` - (SELECT count(*) FROM `products` `v` WHERE `v`.`parent_id` = OLD.`product_id`)
	WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
		AND `set_id` IN (SELECT `set_id` FROM `scope_set_moving`);
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, `c`.`channel_key`, `c`.`lang`, `k`.`item`, -1 * CASE `k`.`item` WHEN '' THEN 1 WHEN '#score' THEN `c`.`score` ELSE `c`.`score` = 100 END
	FROM (SELECT `set_id` FROM `scope_set_moving`) `s`, `products` `p` JOIN `completeness` `c` ON `c`.`product_key` = `p`.`rowid`, (SELECT '' AS `item` UNION ALL SELECT '#score' UNION ALL SELECT '#complete') `k`
	WHERE `p`.`id` = OLD.`product_id`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, `c`.`channel_key`, `c`.`lang`, `j`.`value`, -1
	FROM (SELECT `set_id` FROM `scope_set_moving`) `s`, `products` `p` JOIN `completeness` `c` ON `c`.`product_key` = `p`.`rowid`, json_each(coalesce(`c`.`missing`, '[]')) `j`
	WHERE `p`.`id` = OLD.`product_id`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, `c`.`channel_key`, `c`.`lang`, `k`.`item`, -1 * CASE `k`.`item` WHEN '#variants' THEN 1 ELSE `c`.`score` = 100 END
	FROM (SELECT `set_id` FROM `scope_set_moving`) `s`, `products` `v` JOIN `variant_completeness` `c` ON `c`.`product_key` = `v`.`rowid`, (SELECT '#variants' AS `item` UNION ALL SELECT '#variantsComplete') `k`
	WHERE `v`.`parent_id` = OLD.`product_id`
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	DELETE FROM `scope_set_moving`;
END;
--> statement-breakpoint
-- A variant counts in every set its master is in.
CREATE TRIGGER `scope_counts_variant_insert` AFTER INSERT ON `products`
WHEN NEW.`parent_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = NEW.`company_id`) BEGIN
	UPDATE `scope_set_counts` SET `variants` = `variants` + 1
	WHERE `catalog_id` = NEW.`catalog_id` AND `set_id` IN (SELECT DISTINCT `r`.`set_id` FROM `product_categories` `o`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `o`.`product_id` = NEW.`parent_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `scope_counts_variant_delete` AFTER DELETE ON `products`
WHEN OLD.`parent_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = OLD.`company_id`) BEGIN
	UPDATE `scope_set_counts` SET `variants` = `variants` - 1
	WHERE `catalog_id` = OLD.`catalog_id` AND `set_id` IN (SELECT DISTINCT `r`.`set_id` FROM `product_categories` `o`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `o`.`product_id` = OLD.`parent_id`);
END;
--> statement-breakpoint
-- A score row counts in every set its product (a variant: its master) is in, always row by row:
-- unlike the company's counters (completeness_counts_defer) these triggers are never deferred.
CREATE TRIGGER `scope_completeness_insert` AFTER INSERT ON `completeness` WHEN EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = (SELECT `company_id` FROM `products` WHERE `rowid` = NEW.`product_key`)) BEGIN
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, NEW.`channel_key`, NEW.`lang`, `k`.`item`, 1 * CASE `k`.`item` WHEN '' THEN 1 WHEN '#score' THEN NEW.`score` ELSE NEW.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `p`
		JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `p`.`rowid` = NEW.`product_key` AND `p`.`parent_id` IS NULL) `s`, (SELECT '' AS `item` UNION ALL SELECT '#score' UNION ALL SELECT '#complete') `k` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, NEW.`channel_key`, NEW.`lang`, `j`.`value`, 1
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `p`
		JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `p`.`rowid` = NEW.`product_key` AND `p`.`parent_id` IS NULL) `s`, json_each(coalesce(NEW.`missing`, '[]')) `j` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `scope_completeness_delete` AFTER DELETE ON `completeness` WHEN EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = (SELECT `company_id` FROM `products` WHERE `rowid` = OLD.`product_key`)) BEGIN
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, OLD.`channel_key`, OLD.`lang`, `k`.`item`, -1 * CASE `k`.`item` WHEN '' THEN 1 WHEN '#score' THEN OLD.`score` ELSE OLD.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `p`
		JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `p`.`rowid` = OLD.`product_key` AND `p`.`parent_id` IS NULL) `s`, (SELECT '' AS `item` UNION ALL SELECT '#score' UNION ALL SELECT '#complete') `k` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, OLD.`channel_key`, OLD.`lang`, `j`.`value`, -1
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `p`
		JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `p`.`rowid` = OLD.`product_key` AND `p`.`parent_id` IS NULL) `s`, json_each(coalesce(OLD.`missing`, '[]')) `j` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `scope_completeness_update` AFTER UPDATE ON `completeness` WHEN EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = (SELECT `company_id` FROM `products` WHERE `rowid` = NEW.`product_key`)) BEGIN
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, OLD.`channel_key`, OLD.`lang`, `k`.`item`, -1 * CASE `k`.`item` WHEN '' THEN 1 WHEN '#score' THEN OLD.`score` ELSE OLD.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `p`
		JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `p`.`rowid` = OLD.`product_key` AND `p`.`parent_id` IS NULL) `s`, (SELECT '' AS `item` UNION ALL SELECT '#score' UNION ALL SELECT '#complete') `k` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, OLD.`channel_key`, OLD.`lang`, `j`.`value`, -1
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `p`
		JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `p`.`rowid` = OLD.`product_key` AND `p`.`parent_id` IS NULL) `s`, json_each(coalesce(OLD.`missing`, '[]')) `j` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, NEW.`channel_key`, NEW.`lang`, `k`.`item`, 1 * CASE `k`.`item` WHEN '' THEN 1 WHEN '#score' THEN NEW.`score` ELSE NEW.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `p`
		JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `p`.`rowid` = NEW.`product_key` AND `p`.`parent_id` IS NULL) `s`, (SELECT '' AS `item` UNION ALL SELECT '#score' UNION ALL SELECT '#complete') `k` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, NEW.`channel_key`, NEW.`lang`, `j`.`value`, 1
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `p`
		JOIN `product_categories` `o` ON `o`.`product_id` = `p`.`id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `p`.`rowid` = NEW.`product_key` AND `p`.`parent_id` IS NULL) `s`, json_each(coalesce(NEW.`missing`, '[]')) `j` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `scope_variant_completeness_insert` AFTER INSERT ON `variant_completeness` WHEN EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = (SELECT `company_id` FROM `products` WHERE `rowid` = NEW.`product_key`)) BEGIN
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, NEW.`channel_key`, NEW.`lang`, `k`.`item`, 1 * CASE `k`.`item` WHEN '#variants' THEN 1 ELSE NEW.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `v`
		JOIN `product_categories` `o` ON `o`.`product_id` = `v`.`parent_id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `v`.`rowid` = NEW.`product_key`) `s`, (SELECT '#variants' AS `item` UNION ALL SELECT '#variantsComplete') `k` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `scope_variant_completeness_delete` AFTER DELETE ON `variant_completeness` WHEN EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = (SELECT `company_id` FROM `products` WHERE `rowid` = OLD.`product_key`)) BEGIN
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, OLD.`channel_key`, OLD.`lang`, `k`.`item`, -1 * CASE `k`.`item` WHEN '#variants' THEN 1 ELSE OLD.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `v`
		JOIN `product_categories` `o` ON `o`.`product_id` = `v`.`parent_id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `v`.`rowid` = OLD.`product_key`) `s`, (SELECT '#variants' AS `item` UNION ALL SELECT '#variantsComplete') `k` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `scope_variant_completeness_update` AFTER UPDATE ON `variant_completeness` WHEN EXISTS (SELECT 1 FROM `scope_sets` WHERE `company_id` = (SELECT `company_id` FROM `products` WHERE `rowid` = NEW.`product_key`)) BEGIN
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, OLD.`channel_key`, OLD.`lang`, `k`.`item`, -1 * CASE `k`.`item` WHEN '#variants' THEN 1 ELSE OLD.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `v`
		JOIN `product_categories` `o` ON `o`.`product_id` = `v`.`parent_id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `v`.`rowid` = OLD.`product_key`) `s`, (SELECT '#variants' AS `item` UNION ALL SELECT '#variantsComplete') `k` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `scope_set_completeness` (`set_id`, `channel_key`, `lang`, `item`, `n`)
	SELECT `s`.`set_id`, NEW.`channel_key`, NEW.`lang`, `k`.`item`, 1 * CASE `k`.`item` WHEN '#variants' THEN 1 ELSE NEW.`score` = 100 END
	FROM (SELECT DISTINCT `r`.`set_id` FROM `products` `v`
		JOIN `product_categories` `o` ON `o`.`product_id` = `v`.`parent_id`
		JOIN `category_ancestors` `a` ON `a`.`category_id` = `o`.`category_id`
		JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `v`.`rowid` = NEW.`product_key`) `s`, (SELECT '#variants' AS `item` UNION ALL SELECT '#variantsComplete') `k` WHERE 1
	ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;

-- A category move no longer counts the scope sets above it again inside its own statement
-- (docs/teams.md "Counts", issue 33): that count reads the whole set's products (about 1 s of IO
-- per 100,000 masters), and it ran in the request that moved the category. The move now marks
-- those sets `stale = 3` (counts out of date, to be made again); the move's route makes them
-- again after its answer (src/db/scope-counts.ts `recountStaleSets`, through waitUntil), and a
-- count that finds its set so marked makes it first (`scopeSetId`), so no count is ever read
-- from a set a move made wrong, whether or not the background work ran. Only the last
-- statement differs from migration 0083's trigger (`stale = 1` there, which ran
-- `scope_sets_rebuild` at once).
DROP TRIGGER `category_ancestors_move`;
--> statement-breakpoint
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
	UPDATE `scope_sets` SET `stale` = 3 WHERE `stale` = 2 OR `id` IN (SELECT DISTINCT `r`.`set_id` FROM `category_ancestors` `a` JOIN `scope_set_roots` `r` ON `r`.`category_id` = `a`.`ancestor_id`
		WHERE `a`.`category_id` = NEW.`parent_id`);
END;

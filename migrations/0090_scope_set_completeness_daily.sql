-- The trend of a category-scoped member day by day (docs/teams.md "The trend of a scoped
-- member", issue 33): `completeness_daily` (migration 0027) is the company's, so a member's past
-- days could not be read. Per scope set (migration 0083), channel, language and UTC day: the
-- day's last state of the set's counters (masters scored, those complete, their score sum), the
-- same figures `completeness_daily` keeps for the company. A day without a row had no change of
-- the set's counters and reads as the day before it; a set's series starts at the day it was
-- first counted (its first row). Deleted with its set.
CREATE TABLE `scope_set_completeness_daily` (
	`set_id` integer NOT NULL REFERENCES `scope_sets`(`id`) ON DELETE cascade,
	`channel_key` integer NOT NULL,
	`lang` text NOT NULL,
	`day` text NOT NULL,
	`scored` integer NOT NULL,
	`complete` integer NOT NULL,
	`score_sum` integer NOT NULL,
	PRIMARY KEY(`set_id`, `channel_key`, `lang`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Today's row of every set counted and not out of date (a set being counted again gets its row
-- from that count).
INSERT INTO `scope_set_completeness_daily` (`set_id`, `channel_key`, `lang`, `day`, `scored`, `complete`, `score_sum`)
	SELECT `c`.`set_id`, `c`.`channel_key`, `c`.`lang`, date('now'),
		coalesce(max(CASE WHEN `c`.`item` = '' THEN `c`.`n` END), 0),
		coalesce(max(CASE WHEN `c`.`item` = '#complete' THEN `c`.`n` END), 0),
		coalesce(max(CASE WHEN `c`.`item` = '#score' THEN `c`.`n` END), 0)
	FROM `scope_set_completeness` `c` JOIN `scope_sets` `s` ON `s`.`id` = `c`.`set_id` AND `s`.`built` = 1 AND `s`.`stale` = 0
	WHERE `c`.`item` IN ('', '#complete', '#score') GROUP BY `c`.`set_id`, `c`.`channel_key`, `c`.`lang`;
--> statement-breakpoint
-- Kept from the set's counters themselves, whoever changes them: the score, placement and
-- variant triggers of migration 0083 (never deferred, so the recompute job's bulk pages, which
-- defer only the company's counters, change them row by row too) and the set's (re)count
-- (`scope_sets_rebuild`: its delete of the old counters, then its inserts). Today's row, once
-- written, equals the set's counters of its channel and language: each change of one of the three
-- items adds its difference to it (one primary-key update). A channel and language without a row
-- today get it from the counters after the change (three primary-key reads, once a day). Missing
-- labels and the variant items fire nothing. (Reading the three counters and upserting on every
-- change cost about 0.12 ms of CPU per score-row update of a product in a set; the difference
-- costs 0.02-0.03 ms: docs/benchmarks.md "The scoped trend's day rows".)
CREATE TRIGGER `scope_set_daily_insert` AFTER INSERT ON `scope_set_completeness`
WHEN NEW.`item` IN ('', '#complete', '#score') BEGIN
	UPDATE `scope_set_completeness_daily` SET
		`scored` = `scored` + CASE NEW.`item` WHEN '' THEN NEW.`n` ELSE 0 END,
		`complete` = `complete` + CASE NEW.`item` WHEN '#complete' THEN NEW.`n` ELSE 0 END,
		`score_sum` = `score_sum` + CASE NEW.`item` WHEN '#score' THEN NEW.`n` ELSE 0 END
	WHERE `set_id` = NEW.`set_id` AND `channel_key` = NEW.`channel_key` AND `lang` = NEW.`lang` AND `day` = date('now');
	INSERT INTO `scope_set_completeness_daily` (`set_id`, `channel_key`, `lang`, `day`, `scored`, `complete`, `score_sum`)
		SELECT NEW.`set_id`, NEW.`channel_key`, NEW.`lang`, date('now'),
			coalesce(max(CASE WHEN `item` = '' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#complete' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#score' THEN `n` END), 0)
		FROM `scope_set_completeness` WHERE `set_id` = NEW.`set_id` AND `channel_key` = NEW.`channel_key` AND `lang` = NEW.`lang` AND `item` IN ('', '#complete', '#score')
			AND NOT EXISTS (SELECT 1 FROM `scope_set_completeness_daily` WHERE `set_id` = NEW.`set_id` AND `channel_key` = NEW.`channel_key` AND `lang` = NEW.`lang` AND `day` = date('now'))
		GROUP BY `set_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `scope_set_daily_update` AFTER UPDATE OF `n` ON `scope_set_completeness`
WHEN NEW.`item` IN ('', '#complete', '#score') AND NEW.`n` IS NOT OLD.`n` BEGIN
	UPDATE `scope_set_completeness_daily` SET
		`scored` = `scored` + CASE NEW.`item` WHEN '' THEN NEW.`n` - OLD.`n` ELSE 0 END,
		`complete` = `complete` + CASE NEW.`item` WHEN '#complete' THEN NEW.`n` - OLD.`n` ELSE 0 END,
		`score_sum` = `score_sum` + CASE NEW.`item` WHEN '#score' THEN NEW.`n` - OLD.`n` ELSE 0 END
	WHERE `set_id` = NEW.`set_id` AND `channel_key` = NEW.`channel_key` AND `lang` = NEW.`lang` AND `day` = date('now');
	INSERT INTO `scope_set_completeness_daily` (`set_id`, `channel_key`, `lang`, `day`, `scored`, `complete`, `score_sum`)
		SELECT NEW.`set_id`, NEW.`channel_key`, NEW.`lang`, date('now'),
			coalesce(max(CASE WHEN `item` = '' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#complete' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#score' THEN `n` END), 0)
		FROM `scope_set_completeness` WHERE `set_id` = NEW.`set_id` AND `channel_key` = NEW.`channel_key` AND `lang` = NEW.`lang` AND `item` IN ('', '#complete', '#score')
			AND NOT EXISTS (SELECT 1 FROM `scope_set_completeness_daily` WHERE `set_id` = NEW.`set_id` AND `channel_key` = NEW.`channel_key` AND `lang` = NEW.`lang` AND `day` = date('now'))
		GROUP BY `set_id`;
END;
--> statement-breakpoint
-- A (re)count deletes the set's counters before making them again: a channel and language the
-- set no longer has any score of reads 0 from that day on. Not while the set itself is being
-- deleted (its daily rows go with it by the foreign key; the set row is gone by then).
CREATE TRIGGER `scope_set_daily_delete` AFTER DELETE ON `scope_set_completeness`
WHEN OLD.`item` IN ('', '#complete', '#score') AND EXISTS (SELECT 1 FROM `scope_sets` WHERE `id` = OLD.`set_id`) BEGIN
	UPDATE `scope_set_completeness_daily` SET
		`scored` = `scored` + CASE OLD.`item` WHEN '' THEN -OLD.`n` ELSE 0 END,
		`complete` = `complete` + CASE OLD.`item` WHEN '#complete' THEN -OLD.`n` ELSE 0 END,
		`score_sum` = `score_sum` + CASE OLD.`item` WHEN '#score' THEN -OLD.`n` ELSE 0 END
	WHERE `set_id` = OLD.`set_id` AND `channel_key` = OLD.`channel_key` AND `lang` = OLD.`lang` AND `day` = date('now');
	INSERT INTO `scope_set_completeness_daily` (`set_id`, `channel_key`, `lang`, `day`, `scored`, `complete`, `score_sum`)
		SELECT OLD.`set_id`, OLD.`channel_key`, OLD.`lang`, date('now'),
			coalesce(max(CASE WHEN `item` = '' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#complete' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#score' THEN `n` END), 0)
		FROM `scope_set_completeness` WHERE `set_id` = OLD.`set_id` AND `channel_key` = OLD.`channel_key` AND `lang` = OLD.`lang` AND `item` IN ('', '#complete', '#score')
			AND NOT EXISTS (SELECT 1 FROM `scope_set_completeness_daily` WHERE `set_id` = OLD.`set_id` AND `channel_key` = OLD.`channel_key` AND `lang` = OLD.`lang` AND `day` = date('now'))
		GROUP BY `set_id`;
END;

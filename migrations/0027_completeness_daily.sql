-- Completeness over the last 30 days (issue 21, docs/completeness.md "History"): one row per
-- channel, language and UTC day with the day's last state of the counters: masters scored,
-- those complete, and the sum of their scores (mean = score_sum / scored). Written in the same
-- transaction as the score rows, by the counter triggers below (never by scanning scores); a
-- day without any write has no row and reads as the day before it.
CREATE TABLE `completeness_daily` (
	`channel_key` integer NOT NULL,
	`lang` text NOT NULL,
	`day` text NOT NULL,
	`scored` integer NOT NULL,
	`complete` integer NOT NULL,
	`score_sum` integer NOT NULL,
	PRIMARY KEY(`channel_key`, `lang`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Today's row for every channel and language already scored.
INSERT INTO `completeness_daily` (`channel_key`, `lang`, `day`, `scored`, `complete`, `score_sum`)
	SELECT `channel_key`, `lang`, date('now'),
		coalesce(max(CASE WHEN `item` = '' THEN `n` END), 0),
		coalesce(max(CASE WHEN `item` = '#complete' THEN `n` END), 0),
		coalesce(max(CASE WHEN `item` = '#score' THEN `n` END), 0)
	FROM `completeness_counts` WHERE `item` IN ('', '#complete', '#score') GROUP BY `channel_key`, `lang`;
--> statement-breakpoint
-- The counter triggers of migration 0026, each ending with the upsert of today's row from the
-- counters it has just changed: a statement at the end of the same trigger body sees them final,
-- whatever order SQLite fires triggers in.
DROP TRIGGER `completeness_counts_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_counts_insert` AFTER INSERT ON `completeness` BEGIN
	INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
		SELECT NEW.channel_key, NEW.lang, '', 1 UNION ALL
		SELECT NEW.channel_key, NEW.lang, '#score', NEW.score UNION ALL
		SELECT NEW.channel_key, NEW.lang, '#complete', 1 WHERE NEW.score = 100 UNION ALL
		SELECT NEW.channel_key, NEW.lang, j.value, 1 FROM json_each(coalesce(NEW.missing, '[]')) j WHERE 1
		ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
	INSERT INTO `completeness_daily` (`channel_key`, `lang`, `day`, `scored`, `complete`, `score_sum`)
		SELECT NEW.channel_key, NEW.lang, date('now'),
			coalesce(max(CASE WHEN `item` = '' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#complete' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#score' THEN `n` END), 0)
		FROM `completeness_counts` WHERE `channel_key` = NEW.channel_key AND `lang` = NEW.lang AND `item` IN ('', '#complete', '#score')
		ON CONFLICT DO UPDATE SET `scored` = excluded.`scored`, `complete` = excluded.`complete`, `score_sum` = excluded.`score_sum`;
END;
--> statement-breakpoint
DROP TRIGGER `completeness_counts_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_counts_delete` AFTER DELETE ON `completeness` BEGIN
	UPDATE `completeness_counts` SET `n` = `n` - CASE WHEN `item` = '#score' THEN OLD.score ELSE 1 END
		WHERE `channel_key` = OLD.channel_key AND `lang` = OLD.lang AND (`item` IN ('', '#score')
			OR (`item` = '#complete' AND OLD.score = 100)
			OR `item` IN (SELECT j.value FROM json_each(coalesce(OLD.missing, '[]')) j));
	INSERT INTO `completeness_daily` (`channel_key`, `lang`, `day`, `scored`, `complete`, `score_sum`)
		SELECT OLD.channel_key, OLD.lang, date('now'),
			coalesce(max(CASE WHEN `item` = '' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#complete' THEN `n` END), 0),
			coalesce(max(CASE WHEN `item` = '#score' THEN `n` END), 0)
		FROM `completeness_counts` WHERE `channel_key` = OLD.channel_key AND `lang` = OLD.lang AND `item` IN ('', '#complete', '#score')
		ON CONFLICT DO UPDATE SET `scored` = excluded.`scored`, `complete` = excluded.`complete`, `score_sum` = excluded.`score_sum`;
END;

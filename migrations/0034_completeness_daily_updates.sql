-- Migrations 0027 and 0028 were written side by side: 0027 made the counter triggers on
-- `completeness` insert and delete also upsert today's row of `completeness_daily`; 0028 rewrites
-- score rows in place (upserts) and added the counter trigger for UPDATE without that upsert, so a
-- score that moved in place would not reach the 30-day history. This recreates it with the
-- upsert at its end, as 0027's triggers have it.
DROP TRIGGER `completeness_counts_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_counts_update` AFTER UPDATE ON `completeness` BEGIN
	UPDATE `completeness_counts` SET `n` = `n` - CASE WHEN `item` = '#score' THEN OLD.score ELSE 1 END
		WHERE `channel_key` = OLD.channel_key AND `lang` = OLD.lang AND (`item` = '#score'
			OR (`item` = '#complete' AND OLD.score = 100)
			OR `item` IN (SELECT j.value FROM json_each(coalesce(OLD.missing, '[]')) j));
	INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
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

-- Counters kept once per page during a recompute (issue 21, docs/completeness.md "Measured"):
-- the recompute job rewrites up to 3 score rows per master and language of one channel, and each
-- row fired the counter triggers (5+ upserts of `completeness_counts` and one aggregate upsert of
-- `completeness_daily` per row). While a row exists in `completeness_counts_defer` the six counter
-- triggers below do nothing; the job's page (src/db/score-counts.ts) then subtracts the page's
-- score rows from the counters before rescoring and adds them back after it, in two aggregate
-- statements, and upserts today's `completeness_daily` rows once. All of it is one D1 batch, i.e.
-- one transaction with the rescore: no other write ever sees the switch. The bodies are those of
-- migrations 0027, 0034 and 0038, unchanged.
CREATE TABLE `completeness_counts_defer` (`id` integer PRIMARY KEY);
--> statement-breakpoint
DROP TRIGGER `completeness_counts_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_counts_insert` AFTER INSERT ON `completeness` WHEN NOT EXISTS (SELECT 1 FROM `completeness_counts_defer`) BEGIN
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
CREATE TRIGGER `completeness_counts_delete` AFTER DELETE ON `completeness` WHEN NOT EXISTS (SELECT 1 FROM `completeness_counts_defer`) BEGIN
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
--> statement-breakpoint
DROP TRIGGER `completeness_counts_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_counts_update` AFTER UPDATE ON `completeness` WHEN NOT EXISTS (SELECT 1 FROM `completeness_counts_defer`) BEGIN
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
--> statement-breakpoint
DROP TRIGGER `variant_completeness_counts_insert`;
--> statement-breakpoint
CREATE TRIGGER `variant_completeness_counts_insert` AFTER INSERT ON `variant_completeness` WHEN NOT EXISTS (SELECT 1 FROM `completeness_counts_defer`) BEGIN
	INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
		SELECT NEW.channel_key, NEW.lang, '#variants', 1 UNION ALL
		SELECT NEW.channel_key, NEW.lang, '#variantsComplete', 1 WHERE NEW.score = 100
		ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
DROP TRIGGER `variant_completeness_counts_delete`;
--> statement-breakpoint
CREATE TRIGGER `variant_completeness_counts_delete` AFTER DELETE ON `variant_completeness` WHEN NOT EXISTS (SELECT 1 FROM `completeness_counts_defer`) BEGIN
	UPDATE `completeness_counts` SET `n` = `n` - 1
		WHERE `channel_key` = OLD.channel_key AND `lang` = OLD.lang
			AND (`item` = '#variants' OR (`item` = '#variantsComplete' AND OLD.score = 100));
END;
--> statement-breakpoint
DROP TRIGGER `variant_completeness_counts_update`;
--> statement-breakpoint
CREATE TRIGGER `variant_completeness_counts_update` AFTER UPDATE OF `score` ON `variant_completeness`
	WHEN (OLD.score = 100) <> (NEW.score = 100) AND NOT EXISTS (SELECT 1 FROM `completeness_counts_defer`) BEGIN
	INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
		VALUES (NEW.channel_key, NEW.lang, '#variantsComplete', CASE WHEN NEW.score = 100 THEN 1 ELSE -1 END)
		ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;

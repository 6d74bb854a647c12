-- Counters of variants per channel and language (issue 21, docs/completeness.md "Variants"):
-- `completeness_counts` gets two more items, kept by triggers on `variant_completeness` as the
-- master items are on `completeness`: '#variants' = variants scored, '#variantsComplete' = those
-- at 100. The overview reads them (never a count of score rows); the master items are unchanged.
CREATE TRIGGER `variant_completeness_counts_insert` AFTER INSERT ON `variant_completeness` BEGIN
	INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
		SELECT NEW.channel_key, NEW.lang, '#variants', 1 UNION ALL
		SELECT NEW.channel_key, NEW.lang, '#variantsComplete', 1 WHERE NEW.score = 100
		ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
CREATE TRIGGER `variant_completeness_counts_delete` AFTER DELETE ON `variant_completeness` BEGIN
	UPDATE `completeness_counts` SET `n` = `n` - 1
		WHERE `channel_key` = OLD.channel_key AND `lang` = OLD.lang
			AND (`item` = '#variants' OR (`item` = '#variantsComplete' AND OLD.score = 100));
END;
--> statement-breakpoint
-- An in-place rewrite (upkeep writes only changed rows) moves a variant in or out of complete.
CREATE TRIGGER `variant_completeness_counts_update` AFTER UPDATE OF `score` ON `variant_completeness`
	WHEN (OLD.score = 100) <> (NEW.score = 100) BEGIN
	INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
		VALUES (NEW.channel_key, NEW.lang, '#variantsComplete', CASE WHEN NEW.score = 100 THEN 1 ELSE -1 END)
		ON CONFLICT DO UPDATE SET `n` = `n` + excluded.`n`;
END;
--> statement-breakpoint
-- The variants scored before this migration.
INSERT INTO `completeness_counts` (`channel_key`, `lang`, `item`, `n`)
	SELECT `channel_key`, `lang`, '#variants', count(*) FROM `variant_completeness` GROUP BY `channel_key`, `lang`
	UNION ALL
	SELECT `channel_key`, `lang`, '#variantsComplete', count(*) FROM `variant_completeness` WHERE `score` = 100 GROUP BY `channel_key`, `lang`
	ON CONFLICT DO UPDATE SET `n` = excluded.`n`;

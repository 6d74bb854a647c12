-- Issue 34: completeness.reached / .lost of single writes compared per (product, channel) at the
-- end of the write instead of per score row, and review / completeness events as items of the
-- changes feed (docs/webhooks.md "Events", docs/changes-feed.md).
--
-- Migrations 0061 and 0064 sent the completeness events from row triggers on `completeness` and
-- `variant_completeness`, which cannot tell a new product's rows from a rule starting to apply,
-- a pair whose rows all go for good from a language's rows replaced by another's, and so missed
-- some events and sent a false `reached`. Now the row triggers only note each touched pair's
-- state BEFORE its first change in the write (completeness_transition_pending: NULL = no rows,
-- else whether one was under 100), and the write's end compares it with the state after:
-- * every rescore trigger of migration 0028 (one per statement on the product's data) ends with
--   an insert into completeness_events_flush, whose trigger writes the events into
--   domain_events (below) and empties the pending table;
-- * a batch of several statements holds the flush until its end (completeness_events_hold, set
--   and cleared in the same batch: src/db/completeness-flush.ts), so the pair is compared once
--   per write (AddProduct, UpdateProduct, an import's deferred rescore, a category move).
-- The recompute job and a channel's removal keep switching the row triggers off
-- (completeness_events_defer, migration 0061) and compare set-based themselves.

-- Review and completeness events as items of the changes feed (docs/changes-feed.md "Events"):
-- every such event is written once here, for every company, and published by the trigger below
-- in the same transaction: a `change_feed` row (the feed's commit sequence, shared with the
-- history's versions: `version_id` holds the event's id) and, for a company with an enabled
-- endpoint, the webhook outbox row the dispatcher sends (docs/webhooks.md "Events").
CREATE TABLE `domain_events` (
	`id` text PRIMARY KEY DEFAULT ('evt_' || lower(hex(randomblob(16)))) NOT NULL,
	`company_id` text NOT NULL,
	`event_type` text NOT NULL,
	`order_key` text,
	`data` text NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `domain_events_publish` AFTER INSERT ON `domain_events`
BEGIN
	INSERT INTO `change_feed` (`company_id`, `version_id`) VALUES (new.`company_id`, new.`id`);
	INSERT INTO `webhook_outbox` (`company_id`, `event_type`, `order_key`, `data`, `at`)
	SELECT new.`company_id`, new.`event_type`, new.`order_key`, new.`data`, new.`at`
	WHERE EXISTS (SELECT 1 FROM `webhook_endpoints` e WHERE e.`company_id` = new.`company_id` AND e.`enabled` = 1);
END;
--> statement-breakpoint
-- The state before the write of each pair it touched; empty between writes.
CREATE TABLE `completeness_transition_pending` (
	`product_key` integer NOT NULL,
	`channel_key` integer NOT NULL,
	`variant` integer NOT NULL,
	`incomplete` integer,
	PRIMARY KEY(`product_key`, `channel_key`, `variant`)
) WITHOUT ROWID;
--> statement-breakpoint
-- A row here (only inside one batch) holds the flush until the batch's last statements.
CREATE TABLE `completeness_events_hold` (`id` integer PRIMARY KEY);
--> statement-breakpoint
-- Inserting a row here ends a write: its trigger compares and empties the pending pairs.
CREATE TABLE `completeness_events_flush` (`id` integer PRIMARY KEY);
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_webhook_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_webhook_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `variant_completeness_webhook_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `variant_completeness_webhook_delete`;
--> statement-breakpoint
-- The first touch of a pair in a write records its state before (a pair already noted is kept;
-- NOT EXISTS, not OR IGNORE: the statement that fires a trigger imposes its own conflict
-- policy): for an inserted row, the pair's other rows; for an updated or deleted row, the others
-- and the row as it was. A row going with its product finds no product and notes nothing.
CREATE TRIGGER `completeness_events_stage_insert` AFTER INSERT ON `completeness`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `completeness_transition_pending` (`product_key`, `channel_key`, `variant`, `incomplete`)
	SELECT new.`product_key`, new.`channel_key`, 0,
		CASE WHEN EXISTS (SELECT 1 FROM `completeness` c WHERE c.`product_key` = new.`product_key`
			AND c.`channel_key` = new.`channel_key` AND c.`lang` <> new.`lang`)
		THEN EXISTS (SELECT 1 FROM `completeness` c WHERE c.`product_key` = new.`product_key`
			AND c.`channel_key` = new.`channel_key` AND c.`lang` <> new.`lang` AND c.`score` < 100) END
	FROM `products` p WHERE p.`rowid` = new.`product_key`
		AND NOT EXISTS (SELECT 1 FROM `completeness_transition_pending` t WHERE t.`product_key` = new.`product_key`
			AND t.`channel_key` = new.`channel_key` AND t.`variant` = 0);
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_events_stage_update` AFTER UPDATE OF `score` ON `completeness`
WHEN (old.`score` < 100) <> (new.`score` < 100) AND NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `completeness_transition_pending` (`product_key`, `channel_key`, `variant`, `incomplete`)
	SELECT old.`product_key`, old.`channel_key`, 0, old.`score` < 100 OR EXISTS (SELECT 1 FROM `completeness` c
		WHERE c.`product_key` = old.`product_key` AND c.`channel_key` = old.`channel_key` AND c.`lang` <> old.`lang` AND c.`score` < 100)
	FROM `products` p WHERE p.`rowid` = old.`product_key`
		AND NOT EXISTS (SELECT 1 FROM `completeness_transition_pending` t WHERE t.`product_key` = old.`product_key`
			AND t.`channel_key` = old.`channel_key` AND t.`variant` = 0);
END;
--> statement-breakpoint
CREATE TRIGGER `completeness_events_stage_delete` AFTER DELETE ON `completeness`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `completeness_transition_pending` (`product_key`, `channel_key`, `variant`, `incomplete`)
	SELECT old.`product_key`, old.`channel_key`, 0, old.`score` < 100 OR EXISTS (SELECT 1 FROM `completeness` c
		WHERE c.`product_key` = old.`product_key` AND c.`channel_key` = old.`channel_key` AND c.`lang` <> old.`lang` AND c.`score` < 100)
	FROM `products` p WHERE p.`rowid` = old.`product_key`
		AND NOT EXISTS (SELECT 1 FROM `completeness_transition_pending` t WHERE t.`product_key` = old.`product_key`
			AND t.`channel_key` = old.`channel_key` AND t.`variant` = 0);
END;
--> statement-breakpoint
CREATE TRIGGER `variant_completeness_events_stage_insert` AFTER INSERT ON `variant_completeness`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `completeness_transition_pending` (`product_key`, `channel_key`, `variant`, `incomplete`)
	SELECT new.`product_key`, new.`channel_key`, 1,
		CASE WHEN EXISTS (SELECT 1 FROM `variant_completeness` c WHERE c.`product_key` = new.`product_key`
			AND c.`channel_key` = new.`channel_key` AND c.`lang` <> new.`lang`)
		THEN EXISTS (SELECT 1 FROM `variant_completeness` c WHERE c.`product_key` = new.`product_key`
			AND c.`channel_key` = new.`channel_key` AND c.`lang` <> new.`lang` AND c.`score` < 100) END
	FROM `products` p WHERE p.`rowid` = new.`product_key`
		AND NOT EXISTS (SELECT 1 FROM `completeness_transition_pending` t WHERE t.`product_key` = new.`product_key`
			AND t.`channel_key` = new.`channel_key` AND t.`variant` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `variant_completeness_events_stage_update` AFTER UPDATE OF `score` ON `variant_completeness`
WHEN (old.`score` < 100) <> (new.`score` < 100) AND NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `completeness_transition_pending` (`product_key`, `channel_key`, `variant`, `incomplete`)
	SELECT old.`product_key`, old.`channel_key`, 1, old.`score` < 100 OR EXISTS (SELECT 1 FROM `variant_completeness` c
		WHERE c.`product_key` = old.`product_key` AND c.`channel_key` = old.`channel_key` AND c.`lang` <> old.`lang` AND c.`score` < 100)
	FROM `products` p WHERE p.`rowid` = old.`product_key`
		AND NOT EXISTS (SELECT 1 FROM `completeness_transition_pending` t WHERE t.`product_key` = old.`product_key`
			AND t.`channel_key` = old.`channel_key` AND t.`variant` = 1);
END;
--> statement-breakpoint
CREATE TRIGGER `variant_completeness_events_stage_delete` AFTER DELETE ON `variant_completeness`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `completeness_transition_pending` (`product_key`, `channel_key`, `variant`, `incomplete`)
	SELECT old.`product_key`, old.`channel_key`, 1, old.`score` < 100 OR EXISTS (SELECT 1 FROM `variant_completeness` c
		WHERE c.`product_key` = old.`product_key` AND c.`channel_key` = old.`channel_key` AND c.`lang` <> old.`lang` AND c.`score` < 100)
	FROM `products` p WHERE p.`rowid` = old.`product_key`
		AND NOT EXISTS (SELECT 1 FROM `completeness_transition_pending` t WHERE t.`product_key` = old.`product_key`
			AND t.`channel_key` = old.`channel_key` AND t.`variant` = 1);
END;
--> statement-breakpoint
-- The end of a write: one event per pending pair whose state differs now (a pair with no rows
-- before had nothing to lose and sends nothing; a pair whose rows all went while one was under
-- 100 reached completeness, `scores: {}`), ordered by product then channel, as the recompute's
-- comparison (src/completeness/completeness-events.ts). A pair whose product or channel is gone
-- sends nothing. A variant's event names its master as productId, ordered by the variant.
CREATE TRIGGER `completeness_events_flush_run` AFTER INSERT ON `completeness_events_flush`
WHEN NOT EXISTS (SELECT 1 FROM `completeness_events_hold`)
BEGIN
	INSERT INTO `domain_events` (`company_id`, `event_type`, `order_key`, `data`)
	SELECT p.`company_id`, CASE WHEN t.`incomplete` THEN 'completeness.reached' ELSE 'completeness.lost' END, p.`id`,
		json_object('productId', p.`id`, 'sku', p.`sku`, 'channelId', ch.`channel_id`, 'channelName', ch.`name`,
			'complete', json(CASE WHEN t.`incomplete` THEN 'true' ELSE 'false' END),
			'scores', (SELECT json_group_object(c.`lang`, c.`score`) FROM `completeness` c
				WHERE c.`product_key` = t.`product_key` AND c.`channel_key` = t.`channel_key`))
	FROM `completeness_transition_pending` t
	JOIN `products` p ON p.`rowid` = t.`product_key` AND p.`parent_id` IS NULL
	JOIN `channels` ch ON ch.`id` = t.`channel_key` AND ch.`company_id` = p.`company_id`
	WHERE t.`variant` = 0 AND t.`incomplete` IS NOT NULL
		AND t.`incomplete` <> EXISTS (SELECT 1 FROM `completeness` c WHERE c.`product_key` = t.`product_key`
			AND c.`channel_key` = t.`channel_key` AND c.`score` < 100)
	ORDER BY p.`id`, ch.`id`;
	INSERT INTO `domain_events` (`company_id`, `event_type`, `order_key`, `data`)
	SELECT v.`company_id`, CASE WHEN t.`incomplete` THEN 'completeness.reached' ELSE 'completeness.lost' END, v.`id`,
		json_object('productId', v.`parent_id`, 'variantId', v.`id`, 'sku', v.`sku`, 'channelId', ch.`channel_id`,
			'channelName', ch.`name`, 'complete', json(CASE WHEN t.`incomplete` THEN 'true' ELSE 'false' END),
			'scores', (SELECT json_group_object(c.`lang`, c.`score`) FROM `variant_completeness` c
				WHERE c.`product_key` = t.`product_key` AND c.`channel_key` = t.`channel_key`))
	FROM `completeness_transition_pending` t
	JOIN `products` v ON v.`rowid` = t.`product_key` AND v.`parent_id` IS NOT NULL
	JOIN `channels` ch ON ch.`id` = t.`channel_key` AND ch.`company_id` = v.`company_id`
	WHERE t.`variant` = 1 AND t.`incomplete` IS NOT NULL
		AND t.`incomplete` <> EXISTS (SELECT 1 FROM `variant_completeness` c WHERE c.`product_key` = t.`product_key`
			AND c.`channel_key` = t.`channel_key` AND c.`score` < 100)
	ORDER BY v.`id`, ch.`id`;
	DELETE FROM `completeness_transition_pending`;
	DELETE FROM `completeness_events_flush`;
END;
--> statement-breakpoint
-- review.reopened (migration 0064) now goes through domain_events, for every company; otherwise unchanged.
DROP TRIGGER IF EXISTS `review_reopened_webhook`;
--> statement-breakpoint
CREATE TRIGGER `review_reopened_webhook` AFTER UPDATE OF `state` ON `review_states`
WHEN OLD.`state` = 'approved' AND NEW.`state` = 'in_review' AND NEW.`returned_version` IS NOT NULL
BEGIN
	INSERT INTO `domain_events` (`company_id`, `event_type`, `order_key`, `data`)
	SELECT NEW.`company_id`, 'review.reopened', p.`id`,
		json_patch(json_object('productId', p.`id`, 'sku', p.`sku`, 'channelId', ch.`channel_id`, 'channelName', ch.`name`,
			'state', 'in_review', 'changeId', v.`id`, 'elementId', v.`element_id`, 'elementKind', v.`element_kind`,
			'userId', v.`user_id`, 'surface', v.`surface`,
			'fields', json((SELECT json_group_array(f) FROM (SELECT DISTINCT CASE WHEN instr(m.value, '@') > 0
				THEN substr(m.value, 1, instr(m.value, '@') - 1) ELSE m.value END AS f FROM json_each(matched.paths) m ORDER BY f))),
			'languages', json((SELECT json_group_array(l) FROM (SELECT DISTINCT substr(m.value, instr(m.value, '@') + 1) AS l
				FROM json_each(matched.paths) m WHERE instr(m.value, '@') > 0 ORDER BY l)))),
			json_object('clientName', v.`client_name`, 'jobId', v.`job_id`))
	FROM `products` p
	JOIN `channels` ch ON ch.`id` = NEW.`channel_key` AND ch.`company_id` = NEW.`company_id`
	JOIN `history_versions` v ON v.`id` = NEW.`returned_version` AND v.`company_id` = NEW.`company_id`,
	-- the version's changed paths that match the channel's rule (as in review_back_on_change)
	(SELECT json_group_array(cp.path) AS paths FROM (SELECT json_extract(c.value, '$[0]') AS path
		FROM `history_versions` hv, json_each(hv.`changes`) c WHERE hv.`id` = NEW.`returned_version`) cp,
		`channels` rc
		WHERE rc.`id` = NEW.`channel_key` AND (
			json_extract(rc.`review_rule`, '$.kind') = 'any' OR (
				(json_extract(rc.`review_rule`, '$.fields') IS NULL OR EXISTS (
					SELECT 1 FROM json_each(rc.`review_rule`, '$.fields') f,
						(SELECT CASE WHEN instr(cp.path, '@') > 0
							THEN substr(cp.path, 1, instr(cp.path, '@') - 1) ELSE cp.path END AS field) pf
					WHERE pf.field = f.value OR substr(pf.field, 1, length(f.value) + 1) = f.value || '.'))
				AND (json_extract(rc.`review_rule`, '$.languages') IS NULL OR EXISTS (
					SELECT 1 FROM json_each(rc.`review_rule`, '$.languages') l
					WHERE l.value = (CASE WHEN instr(cp.path, '@') > 0
						THEN substr(cp.path, instr(cp.path, '@') + 1)
						ELSE (SELECT cat.`language` FROM `history_versions` hv2 JOIN `products` ep ON ep.`id` = hv2.`element_id`
							JOIN `catalogs` cat ON cat.`id` = ep.`catalog_id` WHERE hv2.`id` = NEW.`returned_version`) END)))
			)
		)) matched
	WHERE p.`id` = NEW.`product_id` AND p.`company_id` = NEW.`company_id`;
END;
--> statement-breakpoint
-- The rescore triggers of migration 0028 (as later migrations left them), each now ending its
-- write with the flush; their bodies are otherwise unchanged.
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_insert` AFTER INSERT ON `products` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique')) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique')) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_update` AFTER UPDATE OF `sku`, `name`, `description`, `keywords`, `gtin`, `manufacturer_name`, `manufacturer_pid`, `unit`, `price`, `price_quantity`, `delivery_time_days`, `catalog_id`, `parent_id` ON `products` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.id UNION SELECT rowid FROM products WHERE gtin = NEW.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = NEW.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = NEW.company_id AND kind = 'gtinUnique') UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND NEW.gtin IS NOT OLD.gtin AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_products_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_products_delete` AFTER DELETE ON `products` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` = OLD.rowid;
	DELETE FROM `variant_completeness` WHERE `product_key` = OLD.rowid;
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.id UNION SELECT rowid FROM products WHERE gtin = OLD.gtin AND gtin IS NOT NULL AND gtin <> '' AND company_id = OLD.company_id
		AND 1 AND EXISTS (SELECT 1 FROM channel_rules WHERE company_id = OLD.company_id AND kind = 'gtinUnique')) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_attribute_values_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_insert` AFTER INSERT ON `attribute_values` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_attribute_values_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_update` AFTER UPDATE ON `attribute_values` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_attribute_values_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_attribute_values_delete` AFTER DELETE ON `attribute_values` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_insert` AFTER INSERT ON `translations` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_update` AFTER UPDATE ON `translations` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_translations_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_translations_delete` AFTER DELETE ON `translations` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_insert` AFTER INSERT ON `media` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_update` AFTER UPDATE ON `media` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id UNION SELECT rowid FROM products WHERE id = NEW.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_media_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_media_delete` AFTER DELETE ON `media` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_insert` AFTER INSERT ON `product_prices` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_update` AFTER UPDATE ON `product_prices` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id UNION SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_prices_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_prices_delete` AFTER DELETE ON `product_prices` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_categories_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_categories_insert` AFTER INSERT ON `product_categories` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = NEW.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = NEW.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_product_categories_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_product_categories_delete` AFTER DELETE ON `product_categories` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.product_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.product_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_insert` AFTER INSERT ON `classification_link_classes` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_update` AFTER UPDATE ON `classification_link_classes` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_classes_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_classes_delete` AFTER DELETE ON `classification_link_classes` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_insert`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_insert` AFTER INSERT ON `classification_link_features` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_update`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_update` AFTER UPDATE ON `classification_link_features` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = NEW.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_link_features_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_link_features_delete` AFTER DELETE ON `classification_link_features` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id) UNION ALL SELECT rowid FROM products WHERE parent_id = (SELECT element_id FROM classification_links WHERE id = OLD.link_id)) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `completeness_classification_links_delete`;
--> statement-breakpoint
CREATE TRIGGER `completeness_classification_links_delete` AFTER DELETE ON `classification_links` WHEN NOT EXISTS (SELECT 1 FROM `completeness_defer`) BEGIN
	DELETE FROM `completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `completeness`.product_key AND v.channel_key = `completeness`.channel_key AND v.lang = `completeness`.lang AND v.variant = 0);
	DELETE FROM `variant_completeness` WHERE `product_key` IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND NOT EXISTS (SELECT 1 FROM `completeness_checks` v
		WHERE v.product_key = `variant_completeness`.product_key AND v.channel_key = `variant_completeness`.channel_key AND v.lang = `variant_completeness`.lang AND v.variant = 1);
	INSERT INTO `completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 0 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `variant_completeness` (`product_key`, `channel_key`, `lang`, `score`, `missing`)
		SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
			CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
		FROM `completeness_checks` WHERE product_key IN (SELECT rowid FROM products WHERE id = OLD.element_id UNION ALL SELECT rowid FROM products WHERE parent_id = OLD.element_id) AND variant = 1 GROUP BY product_key, channel_key, lang
		ON CONFLICT DO UPDATE SET `score` = excluded.`score`, `missing` = excluded.`missing`
			WHERE `score` <> excluded.`score` OR `missing` IS NOT excluded.`missing`;
	INSERT INTO `completeness_events_flush` (`id`) SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM `completeness_events_flush`);
END;

-- Issue 34 remainders (docs/review.md, docs/webhooks.md "Events").
--
-- review.reopened: the trigger review_back_on_change (migration 0058) moves an approved master
-- back to in_review when a recorded change matches the channel's rule. That is the only way a
-- state goes from approved to in_review (SubmitForReview starts from a draft), so a row trigger
-- on that transition writes the event, in the same transaction as the write that caused it, into
-- the outbox the other review events use. One event per channel whose state moved. `changeId` is
-- the causing history version (GetChanges' changeId); `fields` and `languages` are those of its
-- changed paths that match the channel's rule (the rule as review_back_on_change reads it; a path
-- without a language suffix gives its field only, as in product events). `userId`, `surface`,
-- `clientName`, `jobId` are who made that change (json_patch drops the absent ones). Only for a
-- company with an enabled webhook endpoint, ordered by the master.
CREATE TRIGGER `review_reopened_webhook` AFTER UPDATE OF `state` ON `review_states`
WHEN OLD.`state` = 'approved' AND NEW.`state` = 'in_review' AND NEW.`returned_version` IS NOT NULL
BEGIN
	INSERT INTO `webhook_outbox` (`company_id`, `event_type`, `order_key`, `data`)
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
	WHERE p.`id` = NEW.`product_id` AND p.`company_id` = NEW.`company_id`
		AND EXISTS (SELECT 1 FROM `webhook_endpoints` e WHERE e.`company_id` = NEW.`company_id` AND e.`enabled` = 1);
END;
--> statement-breakpoint
-- completeness.reached / .lost of variants (single writes), as migration 0061's triggers on
-- `completeness` do for masters: a variant's own scores live in `variant_completeness` (migration
-- 0028). `productId` is the master (the product a receiver reads), `variantId` and `sku` the
-- variant's; ordered by the variant, so its own product.updated event goes first, as a master's.
CREATE TRIGGER `variant_completeness_webhook_update` AFTER UPDATE OF `score` ON `variant_completeness`
WHEN (old.`score` < 100) <> (new.`score` < 100) AND NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `webhook_outbox` (`company_id`, `event_type`, `order_key`, `data`)
	SELECT v.`company_id`, CASE WHEN new.`score` < 100 THEN 'completeness.lost' ELSE 'completeness.reached' END, v.`id`,
		json_object('productId', v.`parent_id`, 'variantId', v.`id`, 'sku', v.`sku`, 'channelId', ch.`channel_id`,
			'channelName', ch.`name`, 'complete', json(CASE WHEN new.`score` < 100 THEN 'false' ELSE 'true' END),
			'scores', (SELECT json_group_object(c.`lang`, c.`score`) FROM `variant_completeness` c
				WHERE c.`product_key` = new.`product_key` AND c.`channel_key` = new.`channel_key`))
	FROM `products` v JOIN `channels` ch ON ch.`id` = new.`channel_key` AND ch.`company_id` = v.`company_id`
	WHERE v.`rowid` = new.`product_key` AND v.`parent_id` IS NOT NULL
		AND EXISTS (SELECT 1 FROM `webhook_endpoints` e WHERE e.`company_id` = v.`company_id` AND e.`enabled` = 1)
		AND NOT EXISTS (SELECT 1 FROM `variant_completeness` c WHERE c.`product_key` = new.`product_key`
			AND c.`channel_key` = new.`channel_key` AND c.`lang` <> new.`lang` AND c.`score` < 100);
END;
--> statement-breakpoint
-- A language row under 100 that goes while the pair's other rows stay, all at 100: the variant
-- reached completeness. As for masters (migration 0061), a pair whose rows all go sends nothing
-- here: a write can delete a pair's rows of one language and insert rows of another right after
-- (the upkeep deletes first), which a row trigger cannot tell from rows going for good; the
-- recompute's set-based comparison does tell them apart. A row going with its variant finds no
-- variant and sends nothing.
CREATE TRIGGER `variant_completeness_webhook_delete` AFTER DELETE ON `variant_completeness`
WHEN old.`score` < 100 AND NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `webhook_outbox` (`company_id`, `event_type`, `order_key`, `data`)
	SELECT v.`company_id`, 'completeness.reached', v.`id`,
		json_object('productId', v.`parent_id`, 'variantId', v.`id`, 'sku', v.`sku`, 'channelId', ch.`channel_id`,
			'channelName', ch.`name`, 'complete', json('true'),
			'scores', (SELECT json_group_object(c.`lang`, c.`score`) FROM `variant_completeness` c
				WHERE c.`product_key` = old.`product_key` AND c.`channel_key` = old.`channel_key`))
	FROM `products` v JOIN `channels` ch ON ch.`id` = old.`channel_key` AND ch.`company_id` = v.`company_id`
	WHERE v.`rowid` = old.`product_key` AND v.`parent_id` IS NOT NULL
		AND EXISTS (SELECT 1 FROM `webhook_endpoints` e WHERE e.`company_id` = v.`company_id` AND e.`enabled` = 1)
		AND EXISTS (SELECT 1 FROM `variant_completeness` c WHERE c.`product_key` = old.`product_key` AND c.`channel_key` = old.`channel_key`)
		AND NOT EXISTS (SELECT 1 FROM `variant_completeness` c WHERE c.`product_key` = old.`product_key`
			AND c.`channel_key` = old.`channel_key` AND c.`score` < 100);
END;

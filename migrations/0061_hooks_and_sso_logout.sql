-- Issue 34 remainder (docs/webhooks.md, docs/sso.md).
--
-- completeness_transition_before: scratch rows of ONE recompute page's batch (a D1 transaction,
-- src/completeness/completeness-events.ts): the (master, channel) pairs scored before the rescore
-- and whether they were incomplete, compared with the state after it to write completeness.reached / .lost
-- events into webhook_outbox, then deleted in the same batch. Empty between batches.
CREATE TABLE `completeness_transition_before` (
	`product_key` integer NOT NULL,
	`channel_key` integer NOT NULL,
	`incomplete` integer NOT NULL,
	PRIMARY KEY(`product_key`, `channel_key`)
) WITHOUT ROWID;
--> statement-breakpoint
-- A row here (only ever inside one batch: the recompute page that compares set-based, and the
-- removal of a deleted channel's scores) switches the row triggers below off.
CREATE TABLE `completeness_events_defer` (`id` integer PRIMARY KEY);
--> statement-breakpoint
-- completeness.reached / .lost of a single write (SetValue, UpdateProduct, an import's deferred
-- rescore): the scores are brought up to date by deleting the rows no rule produces any more and
-- upserting the rest (migration 0028, src/db/score-refresh.ts), so a language row's score changes
-- in place. A master's state in a channel flips exactly when the row that crosses 100 is the only
-- one of the channel's languages under 100 (the others all at 100): then one event. Within one
-- upsert of several languages the rows change one by one, so a pair going from all-incomplete to
-- all-complete sends one `reached` (at its last row) and the reverse one `lost` (at its first).
-- Only for a company with an enabled webhook endpoint; masters only.
CREATE TRIGGER `completeness_webhook_update` AFTER UPDATE OF `score` ON `completeness`
WHEN (old.`score` < 100) <> (new.`score` < 100) AND NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `webhook_outbox` (`company_id`, `event_type`, `order_key`, `data`)
	SELECT p.`company_id`, CASE WHEN new.`score` < 100 THEN 'completeness.lost' ELSE 'completeness.reached' END, p.`id`,
		json_object('productId', p.`id`, 'sku', p.`sku`, 'channelId', ch.`channel_id`, 'channelName', ch.`name`,
			'complete', json(CASE WHEN new.`score` < 100 THEN 'false' ELSE 'true' END),
			'scores', (SELECT json_group_object(c.`lang`, c.`score`) FROM `completeness` c
				WHERE c.`product_key` = new.`product_key` AND c.`channel_key` = new.`channel_key`))
	FROM `products` p JOIN `channels` ch ON ch.`id` = new.`channel_key` AND ch.`company_id` = p.`company_id`
	WHERE p.`rowid` = new.`product_key`
		AND EXISTS (SELECT 1 FROM `webhook_endpoints` e WHERE e.`company_id` = p.`company_id` AND e.`enabled` = 1)
		AND NOT EXISTS (SELECT 1 FROM `completeness` c WHERE c.`product_key` = new.`product_key`
			AND c.`channel_key` = new.`channel_key` AND c.`lang` <> new.`lang` AND c.`score` < 100);
END;
--> statement-breakpoint
-- A language row under 100 that goes (no rule of that language applies any more) while the
-- channel's other rows of the master stay, all at 100: the master reached completeness. A row
-- going with its product (a delete) finds no product and sends nothing; a pair whose rows all go
-- sends nothing either (as the recompute's comparison).
CREATE TRIGGER `completeness_webhook_delete` AFTER DELETE ON `completeness`
WHEN old.`score` < 100 AND NOT EXISTS (SELECT 1 FROM `completeness_events_defer`)
BEGIN
	INSERT INTO `webhook_outbox` (`company_id`, `event_type`, `order_key`, `data`)
	SELECT p.`company_id`, 'completeness.reached', p.`id`,
		json_object('productId', p.`id`, 'sku', p.`sku`, 'channelId', ch.`channel_id`, 'channelName', ch.`name`,
			'complete', json('true'),
			'scores', (SELECT json_group_object(c.`lang`, c.`score`) FROM `completeness` c
				WHERE c.`product_key` = old.`product_key` AND c.`channel_key` = old.`channel_key`))
	FROM `products` p JOIN `channels` ch ON ch.`id` = old.`channel_key` AND ch.`company_id` = p.`company_id`
	WHERE p.`rowid` = old.`product_key`
		AND EXISTS (SELECT 1 FROM `webhook_endpoints` e WHERE e.`company_id` = p.`company_id` AND e.`enabled` = 1)
		AND EXISTS (SELECT 1 FROM `completeness` c WHERE c.`product_key` = old.`product_key` AND c.`channel_key` = old.`channel_key`)
		AND NOT EXISTS (SELECT 1 FROM `completeness` c WHERE c.`product_key` = old.`product_key`
			AND c.`channel_key` = old.`channel_key` AND c.`score` < 100);
END;
--> statement-breakpoint
-- The ID token of a session opened through single sign-on, sealed (AES-256-GCM under
-- SSO_ENCRYPTION_KEY, the session's token hash as additional data): sent back to the identity
-- provider as id_token_hint when the user signs out (RP-initiated logout). NULL for passwords.
ALTER TABLE `sessions` ADD `sso_id_token` text;
--> statement-breakpoint
-- The end_session_endpoint of the issuer that opened the session (from its discovery document).
ALTER TABLE `sessions` ADD `sso_logout_url` text;

-- The changes feed and webhooks (issue 34, docs/changes-feed.md, docs/webhooks.md).
--
-- change_feed gives every history version a sequence number in commit order. The history's own
-- id is a UUIDv7 made in JavaScript before the batch commits, so two writers can commit out of
-- id order and a poller keyed on it could skip a version committed late. An AUTOINCREMENT key
-- assigned by the trigger inside the writing transaction is taken in commit order (D1 runs one
-- writer at a time), is never reused, and survives VACUUM (unlike a bare rowid). Every writer of
-- history_versions is covered by the triggers without knowing about them; retention's deletes
-- remove the feed row too.
CREATE TABLE `change_feed` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` text NOT NULL,
	`version_id` text NOT NULL
);--> statement-breakpoint
CREATE INDEX `change_feed_company_seq_idx` ON `change_feed` (`company_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `change_feed_version_idx` ON `change_feed` (`version_id`);--> statement-breakpoint
INSERT INTO `change_feed` (`company_id`, `version_id`) SELECT `company_id`, `id` FROM `history_versions` ORDER BY `id`;--> statement-breakpoint
CREATE TRIGGER `history_versions_feed_insert` AFTER INSERT ON `history_versions` BEGIN
	INSERT INTO `change_feed` (`company_id`, `version_id`) VALUES (new.`company_id`, new.`id`);
END;--> statement-breakpoint
-- Receiver URLs of a company. The signing secret (`whsec_...`) is sealed with AES-GCM
-- (WEBHOOK_ENCRYPTION_KEY, the endpoint id as additional data); after a rotation the previous
-- one stays valid (and is signed with too) until previous_secret_expires_at.
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`url` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`event_types` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT 1 NOT NULL,
	`disabled_reason` text,
	`disabled_at` text,
	`secret_sealed` text NOT NULL,
	`previous_secret_sealed` text,
	`previous_secret_expires_at` text,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX `webhook_endpoints_company_idx` ON `webhook_endpoints` (`company_id`,`id`);--> statement-breakpoint
-- One message to one endpoint (an event, or several changes of one product merged) and its
-- attempts. order_key (the product) serialises the deliveries of one product to one endpoint.
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`message_id` text NOT NULL,
	`event_type` text NOT NULL,
	`order_key` text,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`last_status` integer,
	`last_error` text,
	`last_attempt_at` text,
	`log` text DEFAULT '[]' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`company_id`,`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_order_idx` ON `webhook_deliveries` (`endpoint_id`,`order_key`,`id`) WHERE `status` = 'pending';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`company_id`,`next_attempt_at`) WHERE `status` = 'pending';--> statement-breakpoint
-- Events the history does not carry (jobs finished or failed, release upgraded, test events),
-- written in the same batch as the state change and fanned out by the dispatcher with the feed.
CREATE TABLE `webhook_outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` text NOT NULL,
	`event_type` text NOT NULL,
	`order_key` text,
	`data` text NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);--> statement-breakpoint
CREATE INDEX `webhook_outbox_company_seq_idx` ON `webhook_outbox` (`company_id`,`seq`);--> statement-breakpoint
-- Where each company's dispatcher stands in the feed and in the outbox (null: start at the end).
CREATE TABLE `webhook_dispatch` (
	`company_id` text PRIMARY KEY NOT NULL,
	`feed_seq` integer,
	`outbox_seq` integer,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
-- A job that ends (succeeded or failed) leaves its event in the outbox in the same transaction
-- as its state change, whichever code path ends it, but only for a company that has an enabled
-- endpoint (no rows for companies without webhooks).
CREATE TRIGGER `jobs_webhook_outbox` AFTER UPDATE OF `state` ON `jobs`
WHEN new.`state` IN ('succeeded', 'failed') AND old.`state` NOT IN ('succeeded', 'failed', 'cancelled')
	AND EXISTS (SELECT 1 FROM `webhook_endpoints` WHERE `company_id` = new.`company_id` AND `enabled` = 1)
BEGIN
	INSERT INTO `webhook_outbox` (`company_id`, `event_type`, `order_key`, `data`) VALUES (
		new.`company_id`,
		CASE
			WHEN new.`kind` = 'releaseUpgrade' AND new.`state` = 'succeeded' THEN 'release.upgraded'
			WHEN new.`kind` IN ('import', 'export', 'sync') THEN new.`kind` || (CASE new.`state` WHEN 'succeeded' THEN '.finished' ELSE '.failed' END)
			ELSE 'job' || (CASE new.`state` WHEN 'succeeded' THEN '.finished' ELSE '.failed' END)
		END,
		new.`id`,
		json_object('jobId', new.`id`, 'kind', new.`kind`, 'state', new.`state`, 'error', new.`error`,
			'summary', json(coalesce(new.`summary`, 'null')), 'finishedAt', new.`finished_at`)
	);
END;

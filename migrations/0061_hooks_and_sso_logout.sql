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
-- The ID token of a session opened through single sign-on, sealed (AES-256-GCM under
-- SSO_ENCRYPTION_KEY, the session's token hash as additional data): sent back to the identity
-- provider as id_token_hint when the user signs out (RP-initiated logout). NULL for passwords.
ALTER TABLE `sessions` ADD `sso_id_token` text;
--> statement-breakpoint
-- The end_session_endpoint of the issuer that opened the session (from its discovery document).
ALTER TABLE `sessions` ADD `sso_logout_url` text;

-- OpenID Connect Back-Channel Logout 1.0 (docs/sso.md "Sign-out from the provider"): the provider
-- POSTs a signed logout token naming the user (`sub`) and/or their session at the provider
-- (`sid`); the PIM ends the web sessions it opened for them. A session opened through SSO keeps
-- both from its ID token.
ALTER TABLE `sessions` ADD `sso_subject` text;
--> statement-breakpoint
ALTER TABLE `sessions` ADD `sso_sid` text;
--> statement-breakpoint
CREATE INDEX `sessions_sso_subject_idx` ON `sessions` (`company_id`, `sso_subject`) WHERE `sso_subject` IS NOT NULL;
--> statement-breakpoint
-- Logout tokens already acted on (their `jti`, hashed), kept until the token's age limit has
-- passed: a replayed token is refused instead of ending sessions opened since.
CREATE TABLE `sso_logout_tokens` (
	`jti_hash` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE CASCADE,
	`expires_at` text NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `sso_logout_tokens_expires_idx` ON `sso_logout_tokens` (`expires_at`);

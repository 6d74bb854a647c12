-- OpenID Connect sign-in and SCIM provisioning per company (issue 34, docs/sso.md). Directory
-- tables like users and sessions: they live in DB and are empty in the cells.
-- `sso_settings`: one identity provider per company; the client secret is sealed with
-- SSO_ENCRYPTION_KEY (src/kernel/secret-box.ts), group_roles is a JSON list of {group, role}, the
-- discovery document is cached with the time it was fetched.
CREATE TABLE `sso_settings` (
	`company_id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`client_secret` text NOT NULL,
	`scopes` text DEFAULT 'openid email profile' NOT NULL,
	`groups_claim` text DEFAULT 'groups' NOT NULL,
	`group_roles` text DEFAULT '[]' NOT NULL,
	`default_role` text,
	`mandatory` integer DEFAULT false NOT NULL,
	`break_glass_user_id` text,
	`discovery` text,
	`discovery_fetched_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`break_glass_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);--> statement-breakpoint
CREATE UNIQUE INDEX `sso_settings_slug_unique` ON `sso_settings` (`slug`);--> statement-breakpoint
-- One row per sign-in in flight: looked up by the SHA-256 of `state`, bound to the browser by the
-- SHA-256 of the Service.Sso cookie, deleted when the callback uses it (single use), 10 minutes.
CREATE TABLE `sso_logins` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`browser_hash` text NOT NULL,
	`company_id` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX `sso_logins_expires_idx` ON `sso_logins` (`expires_at`);--> statement-breakpoint
-- A member as the company's identity provider knows them: the OpenID subject and/or the SCIM
-- externalId, and whether SCIM has deactivated them.
CREATE TABLE `sso_identities` (
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`subject` text,
	`external_id` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`company_id`, `user_id`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX `sso_identities_subject_unique` ON `sso_identities` (`company_id`, `subject`);--> statement-breakpoint
-- SCIM bearer tokens: only the SHA-256 is kept; the token is shown once.
CREATE TABLE `scim_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`last_used_at` text,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX `scim_tokens_hash_unique` ON `scim_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `scim_tokens_company_idx` ON `scim_tokens` (`company_id`);
--> statement-breakpoint
-- SCIM groups pushed by the identity provider and their members; a member's role follows the
-- company's group mapping over the groups they are in (docs/sso.md).
CREATE TABLE `scim_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`display_name` text NOT NULL,
	`external_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX `scim_groups_name_unique` ON `scim_groups` (`company_id`, `display_name`);--> statement-breakpoint
CREATE TABLE `scim_group_members` (
	`group_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`group_id`, `user_id`),
	FOREIGN KEY (`group_id`) REFERENCES `scim_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

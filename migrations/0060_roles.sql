-- Roles and scopes (issue 33 item 1, docs/teams.md). `memberships.role` is a text column without
-- a CHECK, so the built-in roles viewer, translator, reviewer and publisher join admin and editor
-- without a rebuild: every existing row stays valid and keeps its rights (src/kernel/permissions.ts).
--
-- A membership's scopes: rows narrow what its role may write. Only `language` is enforced so far
-- (a translator for `fra` writes French texts and nothing else); `catalog`, `category` and
-- `channel` are accepted kinds for the scopes still to come (docs/teams.md "What remains").
-- Deleted with the membership (SCIM deactivation, a member removed). WITHOUT ROWID: read by its key.
CREATE TABLE `membership_scopes` (
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`company_id`, `user_id`, `kind`, `value`),
	FOREIGN KEY (`user_id`, `company_id`) REFERENCES `memberships`(`user_id`, `company_id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- Every change of a member's role or scopes, by whom and when (docs/teams.md): written in the
-- same batch as the change. The catalog's history (`history_versions`) is about catalog elements
-- and feeds the change feed and webhooks; a member is not one.
CREATE TABLE `member_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`changed_by` text NOT NULL,
	`surface` text NOT NULL,
	`changes` text NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `member_changes_company_idx` ON `member_changes` (`company_id`, `user_id`, `id`);

-- Invitations, deactivation and the company-wide audit of permission changes (issue 33 item 4,
-- docs/teams.md).
--
-- An invitation: an admin names an e-mail address, a role and (for a translator) languages; the
-- link carries a random token of which only the SHA-256 is stored, so a read of the database
-- yields no usable link. Single use (`accepted_at`), revocable (`revoked_at`), and it expires.
CREATE TABLE `invitations` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`languages` text DEFAULT '[]' NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`expires_at` text NOT NULL,
	`accepted_at` text,
	`accepted_by` text,
	`revoked_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token_idx` ON `invitations` (`token_hash`);
--> statement-breakpoint
-- The admin's list, newest first (a company has tens of invitations: the open-address check reads them).
CREATE INDEX `invitations_company_idx` ON `invitations` (`company_id`, `id`);
--> statement-breakpoint
-- A deactivated member: the membership itself is gone (as after SCIM deactivation, so every
-- sign-in, session and agent token that needs it fails), and this row keeps what it was so a
-- reactivation restores the same role, languages and department. WITHOUT ROWID: read by its key.
CREATE TABLE `member_deactivations` (
	`company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE cascade,
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`role` text NOT NULL,
	`languages` text DEFAULT '[]' NOT NULL,
	-- the catalog, category and channel scopes as `[kind, value]` pairs (docs/teams.md)
	`scopes` text DEFAULT '[]' NOT NULL,
	`default_department_id` text NOT NULL,
	`deactivated_by` text NOT NULL,
	`deactivated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`company_id`, `user_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- What a recorded change was: `role` (SetMemberRole, every row before this migration), `invite`,
-- `revoke-invitation`, `join` (an invitation accepted), `deactivate`, `reactivate`. For `invite`
-- and `revoke-invitation`, `user_id` holds the invitation's id (the invitee may have no account).
ALTER TABLE `member_changes` ADD COLUMN `action` text DEFAULT 'role' NOT NULL;
--> statement-breakpoint
-- The company's whole audit list, newest first, in keyset pages.
CREATE INDEX `member_changes_company_id_idx` ON `member_changes` (`company_id`, `id`);

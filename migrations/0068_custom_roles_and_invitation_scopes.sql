-- Custom roles (issue 33 item 1, docs/teams.md "Custom roles"): a company's own named set of
-- permissions from the fixed list (never `company.admin`). A membership holding one stores the
-- role's id in `memberships.role` (a text column without a CHECK, like the built-in names; a
-- UUID is never a built-in name), as do invitations and deactivated members; sessions and agent
-- tokens read the permissions by this primary key at every request, so an update counts at once.
-- Names are unique per company whatever their case.
CREATE TABLE `custom_roles` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`name` text NOT NULL,
	`permissions` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_roles_company_name_unique` ON `custom_roles` (`company_id`, lower(`name`));
--> statement-breakpoint
-- An invitation's catalog, category and channel scopes as `[kind, value]` pairs (as
-- `member_deactivations.scopes`), given to the membership when the invitation is accepted.
ALTER TABLE `invitations` ADD COLUMN `scopes` text DEFAULT '[]' NOT NULL;

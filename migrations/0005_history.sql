-- Change history with restore (docs/history.md).
ALTER TABLE `companies` ADD `history_retention_months` integer DEFAULT 24 NOT NULL;
--> statement-breakpoint
ALTER TABLE `companies` ADD `history_pruned_at` text;
--> statement-breakpoint
CREATE TABLE `history_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`element_id` text NOT NULL,
	`element_kind` text NOT NULL,
	`action` text NOT NULL,
	`user_id` text NOT NULL,
	`surface` text NOT NULL,
	`client_name` text,
	`job_id` text,
	`changes` text NOT NULL,
	`at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `history_element_idx` ON `history_versions` (`company_id`,`element_id`,`id`);
--> statement-breakpoint
CREATE INDEX `history_company_at_idx` ON `history_versions` (`company_id`,`at`);

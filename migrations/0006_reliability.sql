-- Job lease: a heartbeat and a restart count, so a job whose worker died is resumed or failed
-- (docs/reliability.md).
ALTER TABLE `jobs` ADD `heartbeat_at` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `jobs_active_idx` ON `jobs` (`state`,`heartbeat_at`);
--> statement-breakpoint
-- Sign-in throttle per (email, IP) with growing delays replaces the per-account lock.
CREATE TABLE `sign_in_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`tries` integer NOT NULL,
	`next_allowed_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sign_in_throttle_updated_idx` ON `sign_in_throttle` (`updated_at`);--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `failed_logins`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `locked_until`;

-- Job lease: a heartbeat and a restart count, so a job whose worker died is resumed or failed
-- (docs/reliability.md).
ALTER TABLE `jobs` ADD `heartbeat_at` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `jobs_active_idx` ON `jobs` (`state`,`heartbeat_at`);

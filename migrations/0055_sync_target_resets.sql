-- The PIM resets the connector's target (DELETE /target) when a connection's shop is removed,
-- the connection is deleted or moved to another connector URL or key (docs/shops.md, "The PIM
-- side"). A reset is recorded here in the same batch as that write, sent at once, and removed
-- when the connector confirmed it; a connector that could not be reached gets it before the
-- next run of that key (src/sync/target-reset.ts). One row per company, connector URL and key.
CREATE TABLE `sync_target_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`connector_url` text NOT NULL,
	`key_id` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX `sync_target_resets_key_uq` ON `sync_target_resets` (`company_id`,`connector_url`,`key_id`);

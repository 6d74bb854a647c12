-- Sync engine (issue 8, docs/sync.md): connections, runs, per-run items, media hashes and the
-- masters-by-SKU index the merge-join walks.
ALTER TABLE `media` ADD `sha256` text;--> statement-breakpoint
CREATE INDEX `products_catalog_master_sku_idx` ON `products` (`catalog_id`,`sku`) WHERE parent_id IS NULL;--> statement-breakpoint
CREATE TABLE `sync_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`department_id` text NOT NULL,
	`catalog_id` text NOT NULL,
	`name` text NOT NULL,
	`connector_url` text NOT NULL,
	`key_id` text NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`options` text NOT NULL,
	`next_run_at` text,
	`run_as_user_id` text NOT NULL,
	`public_base_url` text,
	`mappings` text,
	`mappings_etag` text,
	`mappings_fetched_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`department_id`) REFERENCES `departments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX `sync_connections_company_name_uq` ON `sync_connections` (`company_id`,`name`);--> statement-breakpoint
CREATE INDEX `sync_connections_due_idx` ON `sync_connections` (`next_run_at`);--> statement-breakpoint
CREATE TABLE `sync_runs` (
	`job_id` text PRIMARY KEY NOT NULL,
	`connection_id` text NOT NULL,
	`company_id` text NOT NULL,
	`dry_run` integer NOT NULL,
	`report` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);--> statement-breakpoint
CREATE INDEX `sync_runs_connection_idx` ON `sync_runs` (`connection_id`,`job_id`);--> statement-breakpoint
CREATE TABLE `sync_run_items` (
	`job_id` text NOT NULL,
	`kind` text NOT NULL,
	`sku` text NOT NULL,
	`reason` text,
	PRIMARY KEY(`job_id`, `kind`, `sku`)
);

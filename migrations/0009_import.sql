-- Import (docs/import.md): the group map staged by the validation pass, so placements are
-- written with their product; the products a dry run counted as created. Staging rows live
-- while their job runs and are deleted when it ends.
CREATE TABLE `import_placements` (
	`job_id` text NOT NULL,
	`sku` text NOT NULL,
	`group_id` text NOT NULL,
	PRIMARY KEY(`job_id`, `sku`, `group_id`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `import_dry_products` (
	`job_id` text NOT NULL,
	`sku` text NOT NULL,
	`is_variant` integer NOT NULL,
	PRIMARY KEY(`job_id`, `sku`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;

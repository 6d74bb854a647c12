-- Import tolerance (docs/import.md, "Field problems"): a classification class or feature value
-- the reference data cannot confirm is kept verbatim and flagged `unverified` (a later release
-- loader verifies it); the import report's warnings; rejections and warnings carry a reason
-- code so the report groups them; the SKUs a running import has read (a SKU twice in one file
-- rejects the second product). Staging rows live while their job runs.
ALTER TABLE `classification_link_classes` ADD `unverified` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `classification_link_features` ADD `unverified` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `import_rejections` ADD `code` text DEFAULT 'other' NOT NULL;
--> statement-breakpoint
CREATE TABLE `import_warnings` (
	`job_id` text NOT NULL,
	`seq` integer NOT NULL,
	`n` integer NOT NULL,
	`sku` text,
	`location` text NOT NULL,
	`code` text NOT NULL,
	`reason` text NOT NULL,
	PRIMARY KEY(`job_id`, `seq`, `n`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `import_skus` (
	`job_id` text NOT NULL,
	`sku` text NOT NULL,
	`seq` integer NOT NULL,
	`location` text NOT NULL,
	PRIMARY KEY(`job_id`, `sku`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;

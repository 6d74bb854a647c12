-- Import jobs (docs/import.md): uploaded files, staged BMEcat group systems, rejected products.
ALTER TABLE `jobs` ADD `summary` text;
--> statement-breakpoint
CREATE TABLE `import_files` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`user_id` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`storage_key` text NOT NULL,
	`upload_id` text,
	`parts` text,
	`state` text NOT NULL,
	`size` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_files_company_idx` ON `import_files` (`company_id`,`id`);
--> statement-breakpoint
CREATE TABLE `import_groups` (
	`job_id` text NOT NULL,
	`group_id` text NOT NULL,
	`position` integer NOT NULL,
	`parent_group_id` text,
	`name` text NOT NULL,
	`description` text,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`is_root` integer DEFAULT false NOT NULL,
	`category_id` text,
	PRIMARY KEY(`job_id`, `group_id`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `import_rejections` (
	`job_id` text NOT NULL,
	`seq` integer NOT NULL,
	`sku` text,
	`location` text NOT NULL,
	`reason` text NOT NULL,
	PRIMARY KEY(`job_id`, `seq`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;

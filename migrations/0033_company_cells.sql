-- Tenant cells (issue 22, docs/scaling.md section 5). Every database (the directory `DB`, which
-- is also cell-1, and CELL_2, CELL_3 ...) gets the same migrations: one schema. Only the
-- directory's `company_cells` is read: where a company's tenant rows live, and whether its writes
-- are paused for a move. A company without a row lives in cell-1.
CREATE TABLE `company_cells` (
	`company_id` text PRIMARY KEY NOT NULL,
	`cell` text NOT NULL,
	`state` text DEFAULT 'active' NOT NULL CHECK (`state` IN ('active', 'moving')),
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `company_cells_cell_idx` ON `company_cells` (`cell`, `company_id`);

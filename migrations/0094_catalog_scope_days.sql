-- The trend of a member whose scope names catalogs, day by day (docs/teams.md "The trend of a
-- scoped member", issue 33). No trigger keeps these rows (per-catalog counters kept on every
-- score write were rejected: docs/teams.md says why): once a day per scope the products in it
-- are counted, as today's point of that member's trend counts them (`countedCompletenessCounts`),
-- by the minute cron (src/scheduled.ts) or after the member's GetCompletenessTrend answer.
--
-- One row per distinct scope of the company (its catalogs and subtree roots, sorted: the key),
-- with the day it was last counted: the cron's "is today's count missing" and the rows' parent.
-- Deleted when no membership has the scope any more (the cron), its days with it.
CREATE TABLE `catalog_scopes` (
	`company_id` text NOT NULL,
	`key` text NOT NULL,
	`counted_on` text NOT NULL,
	PRIMARY KEY(`company_id`, `key`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Per scope, channel, language and UTC day: the figures `completeness_daily` keeps for the
-- company (masters scored, complete, score sum), as counted that day. A row for every channel and
-- language of the company at the count (0 when the scope has no scores there), so a day reads 0
-- rather than the day before. Pruned like `completeness_daily`; a deleted channel's rows go with
-- DeleteChannel's job.
CREATE TABLE `catalog_scope_completeness_daily` (
	`company_id` text NOT NULL,
	`scope_key` text NOT NULL,
	`channel_key` integer NOT NULL,
	`lang` text NOT NULL,
	`day` text NOT NULL,
	`scored` integer NOT NULL,
	`complete` integer NOT NULL,
	`score_sum` integer NOT NULL,
	PRIMARY KEY(`company_id`, `scope_key`, `channel_key`, `lang`, `day`),
	FOREIGN KEY (`company_id`, `scope_key`) REFERENCES `catalog_scopes`(`company_id`, `key`) ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- The cron reads the memberships whose scope names a catalog (in the directory) every minute: a
-- range of this index, not a scan of every membership's scopes.
CREATE INDEX `membership_scopes_kind_idx` ON `membership_scopes` (`kind`, `company_id`, `user_id`);

-- A product's or variant's place, recorded with each of its versions (issue 33, docs/teams.md
-- "The changes feed"): its catalog and its master (the master's own id for a master, the parent
-- for a variant). A member with a catalog or category scope is shown the changes of a product
-- that is gone only when its history says it lay in their scope; before this, a deleted master
-- placed in no category and a deleted variant could not be judged and were left out.
-- NULL for catalogs, categories and templates, and for every row written before: ADD COLUMN only
-- changes the schema (O(1) at any size). No backfill: a live product is judged as it is now
-- (these columns are read for elements gone only), and for one gone before this migration the
-- catalog is recorded nowhere (a deleted variant's master only inside its master's `variants`
-- lists, found by reading every version of the company): such rows keep the earlier rule.
ALTER TABLE `history_versions` ADD `catalog_id` text;
--> statement-breakpoint
ALTER TABLE `history_versions` ADD `master_id` text;

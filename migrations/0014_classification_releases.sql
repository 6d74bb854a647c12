-- Official classification releases loaded side by side (issue 20 parts 1 and 2;
-- docs/classification-releases.md). Reference data shared by every company, beside the small
-- hand-made sample in classification_classes & co. (which this migration leaves alone).
--
-- A release is one row of classification_releases with an integer id; every other table is keyed
-- by that id first and declared WITHOUT ROWID, so the primary key is the table (no second copy):
-- ETIM has ~5,000 classes, ~15,000 features, ~50,000 class-feature and ~200,000
-- class-feature-value rows per release. A load writes under a fresh id in status `loading`
-- (invisible to readers, who only read `loaded` releases) and flips it to `loaded` at the end;
-- a replaced or failed release's rows are deleted afterwards in batches.
CREATE TABLE `classification_releases` (
  `id` integer PRIMARY KEY,
  `system` text NOT NULL,
  `version` text NOT NULL,
  `status` text NOT NULL,
  `format` text NOT NULL,
  `languages` text,
  `counts` text,
  `job_id` text,
  `error` text,
  `created_at` text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  `loaded_at` text
);
--> statement-breakpoint
-- One loaded and at most one loading release per system and version.
CREATE UNIQUE INDEX `classification_releases_loaded_uq` ON `classification_releases` (`system`, `version`) WHERE `status` = 'loaded';
--> statement-breakpoint
CREATE UNIQUE INDEX `classification_releases_loading_uq` ON `classification_releases` (`system`, `version`) WHERE `status` = 'loading';
--> statement-breakpoint
CREATE TABLE `release_classes` (
  `release_id` integer NOT NULL,
  `code` text NOT NULL,
  `parent_code` text,
  `level` integer,
  -- The class's IRDI where the release has one (eCl@ss IrdiCC; its relation files reference it).
  `irdi` text,
  `deprecated` integer NOT NULL DEFAULT 0,
  `successor` text,
  PRIMARY KEY (`release_id`, `code`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `release_features` (
  `release_id` integer NOT NULL,
  `code` text NOT NULL,
  -- A alphanumeric (value list or free text), N numeric, R range, L logical. ETIM gives the
  -- type per class (below); a feature's own type is then the one its classes use most.
  `type` text,
  -- The feature's unit where the release gives it per feature (eCl@ss IrdiUN), else per class below.
  `unit_code` text,
  `deprecated` integer NOT NULL DEFAULT 0,
  `successor` text,
  PRIMARY KEY (`release_id`, `code`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `release_values` (
  `release_id` integer NOT NULL,
  `code` text NOT NULL,
  `deprecated` integer NOT NULL DEFAULT 0,
  `successor` text,
  PRIMARY KEY (`release_id`, `code`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `release_units` (
  `release_id` integer NOT NULL,
  `code` text NOT NULL,
  -- UN/ECE Recommendation 20 code where the release gives one (proficl@ss Einheitcode).
  `unece` text,
  `symbol` text,
  PRIMARY KEY (`release_id`, `code`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Names of every entity in every language the release carries: a further language adds rows.
-- kind: C class, F feature, V value, U unit, K keyword (proficl@ss Schlagworte, the text of synonyms).
CREATE TABLE `release_names` (
  `release_id` integer NOT NULL,
  `kind` text NOT NULL,
  `code` text NOT NULL,
  `lang` text NOT NULL,
  `name` text NOT NULL,
  PRIMARY KEY (`release_id`, `kind`, `code`, `lang`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `release_synonyms` (
  `release_id` integer NOT NULL,
  `class_code` text NOT NULL,
  `lang` text NOT NULL,
  `synonym` text NOT NULL,
  PRIMARY KEY (`release_id`, `class_code`, `lang`, `synonym`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `release_class_features` (
  `release_id` integer NOT NULL,
  `class_code` text NOT NULL,
  `feature_code` text NOT NULL,
  `sort` integer NOT NULL,
  `type` text,
  `unit_code` text,
  `mandatory` integer,
  -- The row's number in the source (ETIM ARTCLASSFEATURENR, proficl@ss KlasseMerkmal_Nr):
  -- what the class-feature-value file references.
  `ref` integer,
  PRIMARY KEY (`release_id`, `class_code`, `feature_code`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `release_class_feature_values` (
  `release_id` integer NOT NULL,
  `class_code` text NOT NULL,
  `feature_code` text NOT NULL,
  `value_code` text NOT NULL,
  `sort` integer NOT NULL,
  PRIMARY KEY (`release_id`, `class_code`, `feature_code`, `value_code`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Class search: one row per class and language, the class's name and synonyms as text. The
-- release id is an indexed token (`r12`) so a search touches one release only.
CREATE VIRTUAL TABLE `release_class_search` USING fts5(
  `rel`, `code` UNINDEXED, `lang` UNINDEXED, `text`,
  tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);

-- Review before publishing (issue 33 item 2, docs/review.md). Per channel an admin turns review
-- on with a rule saying which changes send an approved product back to review; per channel and
-- master product a review state (draft -> in_review -> approved; rejected goes back to draft).
-- A review-on channel's exports and shop syncs take only approved products.
--
-- review_rule: NULL while review is off, else {"kind":"any"} or
-- {"kind":"fields","fields":[...]?,"languages":[...]?} (at least one of the two lists).
ALTER TABLE `channels` ADD `review_enabled` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `channels` ADD `review_rule` text;
--> statement-breakpoint
-- One row per channel and master that ever entered review; no row means draft.
-- approved_version: the newest history version of the master and its variants when it was
-- approved, the base of "what changed since the last approval" (history_versions ids are UUIDv7).
CREATE TABLE `review_states` (
  `company_id` text NOT NULL,
  `channel_key` integer NOT NULL,
  `product_id` text NOT NULL,
  `state` text DEFAULT 'draft' NOT NULL,
  `submitted_by` text,
  `submitted_at` text,
  `approved_by` text,
  `approved_at` text,
  `approved_version` text,
  `rejected_by` text,
  `rejected_at` text,
  `rejection_comment` text,
  `returned_version` text,
  `updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
  PRIMARY KEY (`channel_key`, `product_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `review_states_inbox_idx` ON `review_states` (`channel_key`, `state`, `product_id`);
--> statement-breakpoint
CREATE INDEX `review_states_product_idx` ON `review_states` (`product_id`);
--> statement-breakpoint
-- Back to review in the write's own transaction: every write to a product or variant records a
-- history version in its batch (docs/history.md), so one trigger here covers every surface
-- (REST, /api/ai, MCP, import, mass edit, restore, upsert) the way completeness triggers do.
-- A change path is `field` or `field@lang` (`name@eng`, `values.colour@fra`); a path without
-- `@` is in the catalog's own language (what the columns hold). A rule field matches the path's
-- field exactly or as a prefix ending at a dot (`values` matches `values.colour`, `media` every
-- media path). A write that changes nothing records no version and so moves nothing.
CREATE TRIGGER `review_back_on_change` AFTER INSERT ON `history_versions`
WHEN NEW.`element_kind` IN ('product', 'variant') BEGIN
  UPDATE `review_states` SET `state` = 'in_review', `returned_version` = NEW.`id`,
    `updated_at` = strftime('%Y-%m-%dT%H:%M:%fZ','now')
  WHERE `company_id` = NEW.`company_id` AND `state` = 'approved'
    AND `product_id` = (CASE WHEN NEW.`element_kind` = 'product' THEN NEW.`element_id`
      ELSE (SELECT `parent_id` FROM `products` WHERE `id` = NEW.`element_id`) END)
    AND EXISTS (
      SELECT 1 FROM `channels` ch,
        (SELECT json_extract(c.value, '$[0]') AS path FROM json_each(NEW.`changes`) c) ch_path
      WHERE ch.`id` = `review_states`.`channel_key` AND ch.`review_enabled` = 1 AND (
        json_extract(ch.`review_rule`, '$.kind') = 'any' OR (
          (json_extract(ch.`review_rule`, '$.fields') IS NULL OR EXISTS (
            SELECT 1 FROM json_each(ch.`review_rule`, '$.fields') f,
              (SELECT CASE WHEN instr(ch_path.path, '@') > 0
                THEN substr(ch_path.path, 1, instr(ch_path.path, '@') - 1) ELSE ch_path.path END AS field) pf
            WHERE pf.field = f.value OR substr(pf.field, 1, length(f.value) + 1) = f.value || '.'))
          AND (json_extract(ch.`review_rule`, '$.languages') IS NULL OR EXISTS (
            SELECT 1 FROM json_each(ch.`review_rule`, '$.languages') l
            WHERE l.value = (CASE WHEN instr(ch_path.path, '@') > 0
              THEN substr(ch_path.path, instr(ch_path.path, '@') + 1)
              ELSE (SELECT cat.`language` FROM `products` p JOIN `catalogs` cat ON cat.`id` = p.`catalog_id`
                WHERE p.`id` = NEW.`element_id`) END)))
        )
      )
    );
END;
--> statement-breakpoint
-- A deleted master or channel takes its review states with it.
CREATE TRIGGER `review_states_product_delete` AFTER DELETE ON `products` WHEN OLD.`parent_id` IS NULL BEGIN
  DELETE FROM `review_states` WHERE `product_id` = OLD.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `review_states_channel_delete` AFTER DELETE ON `channels` BEGIN
  DELETE FROM `review_states` WHERE `channel_key` = OLD.`id`;
END;

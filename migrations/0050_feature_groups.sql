-- Feature trees of eCl@ss Advanced (BMEcat 2005+onto / 2005.1, issue 32; docs/data-model.md
-- "Feature blocks"): a block's FEATURE_GROUPs as JSON, and the `type` attribute of its
-- REFERENCE_FEATURE_GROUP_ID2. Both null for blocks without them, so stored blocks keep their form.
ALTER TABLE `product_feature_blocks` ADD `group_id2_type` text;--> statement-breakpoint
ALTER TABLE `product_feature_blocks` ADD `feature_groups` text;

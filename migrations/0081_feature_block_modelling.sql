-- ETIM modelling classes (issue 32; docs/data-model.md "Feature blocks"): a block of system
-- ETIM-MC keeps its modelling class version and BIM status as JSON. Null for every other block,
-- so stored blocks keep their form and fingerprint.
ALTER TABLE `product_feature_blocks` ADD `modelling` text;

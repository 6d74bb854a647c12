-- Issue 20: the verification job also re-checks feature values kept as text under classes
-- already of a release; it walks them by link through this partial index (few rows: only the
-- values an import kept verbatim).
CREATE INDEX `classification_link_features_unverified_idx` ON `classification_link_features` (`link_id`) WHERE `unverified` = 1;

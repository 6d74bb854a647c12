-- A classification names its release (issue 20; docs/classification-releases.md, "Classifying
-- against a release"). `release` is the loaded release's name (ETIM-9.0): the class, its
-- features and values were checked against that release's data. NULL: the class was checked
-- against the hand-made sample reference data (classification_classes & co.), as before.
ALTER TABLE `classification_link_classes` ADD `release` text;
--> statement-breakpoint
-- The upgrade and verification jobs walk the classes of one release, or the unverified ones.
CREATE INDEX `classification_link_classes_release_idx` ON `classification_link_classes` (`release`, `link_id`) WHERE `release` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `classification_link_classes_unverified_idx` ON `classification_link_classes` (`link_id`) WHERE `unverified` = 1;

-- How many classification links name each class code, across all companies (docs/search.md,
-- "Filter plans"): the product list answers a class code no link names at once, with nothing,
-- instead of scanning classification_link_classes (about 100 ms at 1M). A planning aid only
-- (never shown; other companies' links count too), a few thousand rows at most, kept by
-- triggers in the same transaction as every write of a link's classes (cascades included).
-- An index on the code itself would answer every class but cost about 15 bytes per product row,
-- over the storage aim.
CREATE TABLE `classification_class_use` (
	`code` text PRIMARY KEY NOT NULL,
	`links` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `classification_class_use` (`code`, `links`)
  SELECT `code`, count(*) FROM `classification_link_classes` GROUP BY `code`;
--> statement-breakpoint
CREATE TRIGGER `classification_class_use_insert` AFTER INSERT ON `classification_link_classes` BEGIN
  INSERT INTO `classification_class_use` (`code`, `links`) VALUES (NEW.`code`, 1)
    ON CONFLICT (`code`) DO UPDATE SET `links` = `links` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `classification_class_use_delete` AFTER DELETE ON `classification_link_classes` BEGIN
  UPDATE `classification_class_use` SET `links` = `links` - 1 WHERE `code` = OLD.`code`;
END;
--> statement-breakpoint
CREATE TRIGGER `classification_class_use_update` AFTER UPDATE OF `code` ON `classification_link_classes`
  WHEN OLD.`code` IS NOT NEW.`code` BEGIN
  UPDATE `classification_class_use` SET `links` = `links` - 1 WHERE `code` = OLD.`code`;
  INSERT INTO `classification_class_use` (`code`, `links`) VALUES (NEW.`code`, 1)
    ON CONFLICT (`code`) DO UPDATE SET `links` = `links` + 1;
END;

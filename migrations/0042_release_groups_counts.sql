-- Classification releases, the remainders of issue 20 (docs/classification-releases.md):
-- * ETIM IXF groups: a class's ETIM group (`EG...`) and the class's own version number. The
--   groups' names are rows of `release_names` with kind `G` (no table of their own: a group is a
--   code with names), so class search can show and filter a class's group;
-- * per-release product counts for the release list: `release_product_counts` holds, per company
--   and release name (`ETIM-9.0`, as `classification_link_classes.release` writes it), how many
--   of the company's products have a class of that release. Kept by triggers in the same
--   transaction as every write of a link's classes, so the list reads a handful of rows instead
--   of the company's classifications. Only links of products count (not categories or catalogs);
--   a link deleted by the cascade of its `classification_links` row is counted off by the
--   BEFORE DELETE trigger on that row (when the class row's own trigger runs, the link is gone).
ALTER TABLE `release_classes` ADD `group_code` text;
--> statement-breakpoint
ALTER TABLE `release_classes` ADD `version` integer;
--> statement-breakpoint
CREATE TABLE `release_product_counts` (
	`company_id` text NOT NULL,
	`release` text NOT NULL,
	`products` integer NOT NULL,
	PRIMARY KEY (`company_id`, `release`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `release_product_counts` (`company_id`, `release`, `products`)
  SELECT l.`company_id`, c.`release`, count(*) FROM `classification_link_classes` c
    JOIN `classification_links` l ON l.`id` = c.`link_id`
    WHERE c.`release` IS NOT NULL AND EXISTS (SELECT 1 FROM `products` p WHERE p.`id` = l.`element_id`)
    GROUP BY l.`company_id`, c.`release`;
--> statement-breakpoint
CREATE TRIGGER `release_product_counts_insert` AFTER INSERT ON `classification_link_classes`
  WHEN NEW.`release` IS NOT NULL BEGIN
  INSERT INTO `release_product_counts` (`company_id`, `release`, `products`)
    SELECT l.`company_id`, NEW.`release`, 1 FROM `classification_links` l
      WHERE l.`id` = NEW.`link_id` AND EXISTS (SELECT 1 FROM `products` p WHERE p.`id` = l.`element_id`)
    ON CONFLICT (`company_id`, `release`) DO UPDATE SET `products` = `products` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `release_product_counts_delete` AFTER DELETE ON `classification_link_classes`
  WHEN OLD.`release` IS NOT NULL BEGIN
  UPDATE `release_product_counts` SET `products` = `products` - 1
    WHERE `release` = OLD.`release` AND `company_id` = (SELECT l.`company_id` FROM `classification_links` l
      WHERE l.`id` = OLD.`link_id` AND EXISTS (SELECT 1 FROM `products` p WHERE p.`id` = l.`element_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `release_product_counts_update` AFTER UPDATE OF `release` ON `classification_link_classes`
  WHEN OLD.`release` IS NOT NEW.`release` BEGIN
  UPDATE `release_product_counts` SET `products` = `products` - 1
    WHERE OLD.`release` IS NOT NULL AND `release` = OLD.`release` AND `company_id` = (SELECT l.`company_id`
      FROM `classification_links` l WHERE l.`id` = OLD.`link_id` AND EXISTS (SELECT 1 FROM `products` p WHERE p.`id` = l.`element_id`));
  INSERT INTO `release_product_counts` (`company_id`, `release`, `products`)
    SELECT l.`company_id`, NEW.`release`, 1 FROM `classification_links` l
      WHERE NEW.`release` IS NOT NULL AND l.`id` = NEW.`link_id`
        AND EXISTS (SELECT 1 FROM `products` p WHERE p.`id` = l.`element_id`)
    ON CONFLICT (`company_id`, `release`) DO UPDATE SET `products` = `products` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `release_product_counts_link_delete` BEFORE DELETE ON `classification_links`
  WHEN EXISTS (SELECT 1 FROM `products` p WHERE p.`id` = OLD.`element_id`) BEGIN
  UPDATE `release_product_counts` SET `products` = `products` - 1
    WHERE `company_id` = OLD.`company_id`
      AND `release` IN (SELECT c.`release` FROM `classification_link_classes` c WHERE c.`link_id` = OLD.`id` AND c.`release` IS NOT NULL);
END;

-- Web application support (issue 9).
--
-- categories.product_count: the products placed directly in a category, kept by triggers on
-- product_categories so every writer (REST, import, sync, cascading deletes) keeps it right
-- without knowing about it; GetCategories/GetCategoryTree read it instead of counting rows.
ALTER TABLE `categories` ADD `product_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `categories` SET `product_count` = (SELECT count(*) FROM `product_categories` WHERE `product_categories`.`category_id` = `categories`.`id`);
--> statement-breakpoint
CREATE TRIGGER `product_categories_count_insert` AFTER INSERT ON `product_categories` BEGIN
  UPDATE `categories` SET `product_count` = `product_count` + 1 WHERE `id` = NEW.`category_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_count_delete` AFTER DELETE ON `product_categories` BEGIN
  UPDATE `categories` SET `product_count` = max(0, `product_count` - 1) WHERE `id` = OLD.`category_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `product_categories_count_update` AFTER UPDATE OF `category_id` ON `product_categories` BEGIN
  UPDATE `categories` SET `product_count` = max(0, `product_count` - 1) WHERE `id` = OLD.`category_id`;
  UPDATE `categories` SET `product_count` = `product_count` + 1 WHERE `id` = NEW.`category_id`;
END;
--> statement-breakpoint
-- jobs.report: the outcome of a job that produces a report instead of a file (mass edit),
-- shown by GetJob as result.report.
ALTER TABLE `jobs` ADD `report` text;

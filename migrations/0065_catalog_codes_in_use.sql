-- The price types and feature-block systems each catalog's products use, kept in step by
-- triggers (docs/shops.md "What remains", issue 35): Catalog/GetCodesInUse read every product of
-- the catalog and its rows for every page (neither code column is indexed, and neither table
-- names the catalog), which a catalog of 1,000,000 products cannot afford on a settings screen.
-- Now a page is a range of this table's primary key. `uses` counts the rows using the code, so
-- the code leaves the list with its last row.
--
-- What a write costs: an insert or delete of a price or feature block adds one product lookup by
-- primary key and one write of a row here; deleting a product (also through the cascade from its
-- catalog) first takes its rows' counts away, as the rows deleted by the cascade cannot find
-- their product any more.
CREATE TABLE `catalog_codes_in_use` (
  `catalog_id` text NOT NULL REFERENCES `catalogs`(`id`) ON DELETE CASCADE,
  `list` text NOT NULL,
  `code` text NOT NULL,
  `uses` integer NOT NULL,
  PRIMARY KEY (`catalog_id`, `list`, `code`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `catalog_codes_in_use` (`catalog_id`, `list`, `code`, `uses`)
SELECT `p`.`catalog_id`, 'priceTypes', `pp`.`type`, count(*)
FROM `product_prices` `pp` JOIN `products` `p` ON `p`.`id` = `pp`.`product_id`
GROUP BY `p`.`catalog_id`, `pp`.`type`;
--> statement-breakpoint
INSERT INTO `catalog_codes_in_use` (`catalog_id`, `list`, `code`, `uses`)
SELECT `p`.`catalog_id`, 'featureSystems', `fb`.`system`, count(*)
FROM `product_feature_blocks` `fb` JOIN `products` `p` ON `p`.`id` = `fb`.`product_id`
GROUP BY `p`.`catalog_id`, `fb`.`system`;
--> statement-breakpoint
CREATE TRIGGER `product_prices_codes_insert` AFTER INSERT ON `product_prices` BEGIN
  INSERT INTO `catalog_codes_in_use` (`catalog_id`, `list`, `code`, `uses`)
  SELECT `catalog_id`, 'priceTypes', NEW.`type`, 1 FROM `products` WHERE `id` = NEW.`product_id`
  ON CONFLICT (`catalog_id`, `list`, `code`) DO UPDATE SET `uses` = `uses` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_prices_codes_delete` AFTER DELETE ON `product_prices` BEGIN
  UPDATE `catalog_codes_in_use` SET `uses` = `uses` - 1
  WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
    AND `list` = 'priceTypes' AND `code` = OLD.`type`;
  DELETE FROM `catalog_codes_in_use`
  WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
    AND `list` = 'priceTypes' AND `code` = OLD.`type` AND `uses` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `product_prices_codes_update` AFTER UPDATE OF `type`, `product_id` ON `product_prices`
WHEN OLD.`type` IS NOT NEW.`type` OR OLD.`product_id` IS NOT NEW.`product_id` BEGIN
  UPDATE `catalog_codes_in_use` SET `uses` = `uses` - 1
  WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
    AND `list` = 'priceTypes' AND `code` = OLD.`type`;
  DELETE FROM `catalog_codes_in_use`
  WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
    AND `list` = 'priceTypes' AND `code` = OLD.`type` AND `uses` <= 0;
  INSERT INTO `catalog_codes_in_use` (`catalog_id`, `list`, `code`, `uses`)
  SELECT `catalog_id`, 'priceTypes', NEW.`type`, 1 FROM `products` WHERE `id` = NEW.`product_id`
  ON CONFLICT (`catalog_id`, `list`, `code`) DO UPDATE SET `uses` = `uses` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_feature_blocks_codes_insert` AFTER INSERT ON `product_feature_blocks` BEGIN
  INSERT INTO `catalog_codes_in_use` (`catalog_id`, `list`, `code`, `uses`)
  SELECT `catalog_id`, 'featureSystems', NEW.`system`, 1 FROM `products` WHERE `id` = NEW.`product_id`
  ON CONFLICT (`catalog_id`, `list`, `code`) DO UPDATE SET `uses` = `uses` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `product_feature_blocks_codes_delete` AFTER DELETE ON `product_feature_blocks` BEGIN
  UPDATE `catalog_codes_in_use` SET `uses` = `uses` - 1
  WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
    AND `list` = 'featureSystems' AND `code` = OLD.`system`;
  DELETE FROM `catalog_codes_in_use`
  WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
    AND `list` = 'featureSystems' AND `code` = OLD.`system` AND `uses` <= 0;
END;
--> statement-breakpoint
CREATE TRIGGER `product_feature_blocks_codes_update` AFTER UPDATE OF `system`, `product_id` ON `product_feature_blocks`
WHEN OLD.`system` IS NOT NEW.`system` OR OLD.`product_id` IS NOT NEW.`product_id` BEGIN
  UPDATE `catalog_codes_in_use` SET `uses` = `uses` - 1
  WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
    AND `list` = 'featureSystems' AND `code` = OLD.`system`;
  DELETE FROM `catalog_codes_in_use`
  WHERE `catalog_id` = (SELECT `catalog_id` FROM `products` WHERE `id` = OLD.`product_id`)
    AND `list` = 'featureSystems' AND `code` = OLD.`system` AND `uses` <= 0;
  INSERT INTO `catalog_codes_in_use` (`catalog_id`, `list`, `code`, `uses`)
  SELECT `catalog_id`, 'featureSystems', NEW.`system`, 1 FROM `products` WHERE `id` = NEW.`product_id`
  ON CONFLICT (`catalog_id`, `list`, `code`) DO UPDATE SET `uses` = `uses` + 1;
END;
--> statement-breakpoint
-- A product's own rows go with it by the cascade, whose delete triggers no longer find the
-- product: its counts are taken away here, before the product row goes.
CREATE TRIGGER `products_codes_delete` BEFORE DELETE ON `products` BEGIN
  UPDATE `catalog_codes_in_use`
  SET `uses` = `uses` - (
    SELECT count(*) FROM `product_prices`
    WHERE `product_id` = OLD.`id` AND `type` = `catalog_codes_in_use`.`code`
  )
  WHERE `catalog_id` = OLD.`catalog_id` AND `list` = 'priceTypes'
    AND `code` IN (SELECT `type` FROM `product_prices` WHERE `product_id` = OLD.`id`);
  UPDATE `catalog_codes_in_use`
  SET `uses` = `uses` - (
    SELECT count(*) FROM `product_feature_blocks`
    WHERE `product_id` = OLD.`id` AND `system` = `catalog_codes_in_use`.`code`
  )
  WHERE `catalog_id` = OLD.`catalog_id` AND `list` = 'featureSystems'
    AND `code` IN (SELECT `system` FROM `product_feature_blocks` WHERE `product_id` = OLD.`id`);
  DELETE FROM `catalog_codes_in_use` WHERE `catalog_id` = OLD.`catalog_id` AND `uses` <= 0;
END;

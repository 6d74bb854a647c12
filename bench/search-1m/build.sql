-- A search-only database at 1,000,000 masters + 600,000 variants (docs/search.md "Prefixes as
-- words"): the products table, its indexes, products_fts with migration 0008's triggers, filled
-- with the texts scripts/seed-synthetic.ts writes (SKU, name, manufacturer part number, GTIN),
-- then the vocabulary table of migration 0011. About 1.5 GB; 5.5 min on the loaded machine.
--   sqlite3 .bench/search1m.sqlite < bench/search-1m/build.sql
--   python3 bench/search-1m/compare.py .bench/search1m.sqlite 15 "Leitungss|Typ 7|..."
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`company_id` text NOT NULL,
	`catalog_id` text NOT NULL,
	`parent_id` text,
	`sku` text,
	`name` text,
	`description` text,
	`gtin` text,
	`manufacturer_name` text,
	`manufacturer_pid` text,
	`unit` text,
	`price` text,
	`price_quantity` integer,
	`keywords` text,
	`delivery_time_days` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	`fingerprint` text,
	`fingerprint_revision` integer DEFAULT -1 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
CREATE UNIQUE INDEX `products_catalog_sku_uq` ON `products` (`catalog_id`,`sku`);
CREATE INDEX `products_list_name_idx` ON `products` (`catalog_id`, `name` COLLATE NOCASE, `id`) WHERE `parent_id` IS NULL;
CREATE INDEX `products_list_updated_idx` ON `products` (`catalog_id`, `updated_at`, `id`) WHERE `parent_id` IS NULL;
CREATE INDEX `products_catalog_master_id_idx` ON `products` (`catalog_id`, `id`) WHERE `parent_id` IS NULL;
CREATE INDEX `products_parent_idx` ON `products` (`parent_id`) WHERE `parent_id` IS NOT NULL;
CREATE TRIGGER `products_fts_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, iif(NEW.`parent_id` IS NULL, NEW.`name`, NULL), NEW.`manufacturer_pid`, NEW.`gtin`,
      iif(NEW.`parent_id` IS NULL, NEW.`keywords`, NULL));
END;
CREATE TRIGGER `products_fts_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, iif(OLD.`parent_id` IS NULL, OLD.`name`, NULL), OLD.`manufacturer_pid`, OLD.`gtin`,
      iif(OLD.`parent_id` IS NULL, OLD.`keywords`, NULL));
END;
CREATE TRIGGER `products_fts_update` AFTER UPDATE OF `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`, `parent_id` ON `products`
  WHEN OLD.`parent_id` IS NULL OR NEW.`parent_id` IS NULL OR OLD.`sku` IS NOT NEW.`sku`
    OR OLD.`manufacturer_pid` IS NOT NEW.`manufacturer_pid` OR OLD.`gtin` IS NOT NEW.`gtin` BEGIN
  INSERT INTO `products_fts` (`products_fts`, `rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES ('delete', OLD.`rowid`, OLD.`sku`, iif(OLD.`parent_id` IS NULL, OLD.`name`, NULL), OLD.`manufacturer_pid`, OLD.`gtin`,
      iif(OLD.`parent_id` IS NULL, OLD.`keywords`, NULL));
  INSERT INTO `products_fts` (`rowid`, `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`)
    VALUES (NEW.`rowid`, NEW.`sku`, iif(NEW.`parent_id` IS NULL, NEW.`name`, NULL), NEW.`manufacturer_pid`, NEW.`gtin`,
      iif(NEW.`parent_id` IS NULL, NEW.`keywords`, NULL));
END;
CREATE VIRTUAL TABLE `products_fts` USING fts5(
  `sku`, `name`, `manufacturer_pid`, `gtin`, `keywords`,
  content='products', content_rowid='rowid',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);

INSERT INTO products_fts (products_fts, rank) VALUES ('rank', 'bm25(10.0, 4.0, 8.0, 8.0, 1.0)');
BEGIN;
WITH RECURSIVE m(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM m WHERE i < 999999),
 rows(i, v) AS (SELECT i, 0 FROM m UNION ALL SELECT i, v FROM m, (SELECT 1 AS v UNION ALL SELECT 2 UNION ALL SELECT 3) WHERE i % 5 = 0),
 ord(i, v, serial) AS (SELECT i, v, row_number() OVER (ORDER BY i, v) FROM rows)
INSERT INTO products (id, company_id, catalog_id, parent_id, sku, name, description, gtin, manufacturer_name, manufacturer_pid, unit, price, price_quantity, delivery_time_days, status, fingerprint)
SELECT printf('01a2%04x-%04x-7%03x-%04x-%012x', i / 65536, i % 65536, v, serial % 65536, serial),
  '01a21140-c626-700d-b5df-2856391ef1fb', '01a21140-c626-700f-b21d-59ab1be0859c',
  CASE WHEN v = 0 THEN NULL ELSE printf('01a2%04x-%04x-7%03x-%04x-%012x', i / 65536, i % 65536, 0, (serial - v) % 65536, serial - v) END,
  CASE WHEN v = 0 THEN printf('GEN-%07d', i) ELSE printf('GEN-%07d-V%d', i, v) END,
  CASE WHEN v = 0 THEN printf('Leitungsschutzschalter %d A Typ %d', (6 + (i % 7) * 4), i)
       ELSE printf('Leitungsschutzschalter %d A Typ %d Variante %d', CASE v WHEN 1 THEN 10 WHEN 2 THEN 16 ELSE 25 END, i, v) END,
  printf('Leitungsschutzschalter. Synthetic product %d for scale tests: rated for continuous operation, RoHS compliant, <tested> & "certified".', serial),
  printf('40%010d%d', serial, serial % 10),
  printf('Hersteller %d', serial % 50), printf('MPN-%d', serial), 'C62', '3.50', 1, 3, 'active',
  CASE WHEN v = 0 THEN 'ab' ELSE NULL END
FROM ord ORDER BY i, v;
COMMIT;

CREATE VIRTUAL TABLE products_fts_terms USING fts5vocab(products_fts, 'instance');

-- A catalog's price formulas (issue 32, docs/data-model.md "Prices"): the FORMULA elements of a
-- BMEcat 2005 file's FORMULAS, which a PRICE_FORMULA's FORMULA_IDREF names. One row per catalog
-- and FORMULA_ID; `formula` is the whole FORMULA element as a JSON tree
-- `{"name":"FORMULA","children":[{"name":"FORMULA_ID","text":"F1"},...]}` (element names,
-- attributes such as `lang`, texts, children in the file's order), checked against the 2005 XSD's
-- content model on import, so the 2005 export writes it back valid. `position` is the order the
-- export writes them in: a new id goes after the catalog's last, a re-imported one keeps its place.
-- Tenant: `company_id` on every row (every query names it) and the catalog's cascade deletes them
-- with the catalog. WITHOUT ROWID: the rows are read by their primary key's prefix only.
CREATE TABLE `catalog_formulas` (
  `catalog_id` text NOT NULL REFERENCES `catalogs`(`id`) ON DELETE CASCADE,
  `formula_id` text NOT NULL,
  `company_id` text NOT NULL REFERENCES `companies`(`id`) ON DELETE CASCADE,
  `position` integer NOT NULL,
  `formula` text NOT NULL,
  PRIMARY KEY (`catalog_id`, `formula_id`)
) WITHOUT ROWID;

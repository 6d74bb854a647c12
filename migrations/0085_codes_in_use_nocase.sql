-- GetCodesInUse's `prefix` ignores ASCII case (docs/shops.md "What remains", issue 35): the web's
-- pick lists type "etim" for "ETIM-9.0". The primary key orders codes by their bytes, so a
-- prefix of either case would be many ranges of it; this index orders them as SQLite's NOCASE
-- compares them (ASCII letters folded), so a prefix is one range of it whatever its case. The
-- answer keeps the code order of the primary key: the range's matches are sorted, only they.
CREATE INDEX `catalog_codes_in_use_nocase_idx`
  ON `catalog_codes_in_use` (`catalog_id`, `list`, `code` COLLATE NOCASE);

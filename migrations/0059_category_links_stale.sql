-- Category media links joined the sync record (docs/shops.md "Category images"): a product placed
-- in a category with links carries them, and its fingerprint covers them. Fingerprints stored
-- before this release were computed without them, so the masters placed in a category that has
-- a link (by URL) are marked stale here: their revisions move past their fingerprints, and the
-- next sync run recomputes them before it compares (as after a category rename) and sends the
-- category's images once. One statement; no other row changes.
UPDATE `products` SET `revision` = `revision` + 1
WHERE `parent_id` IS NULL
  AND `id` IN (
    SELECT `pc`.`product_id` FROM `product_categories` `pc`
    WHERE `pc`.`category_id` IN (
      -- Categories first (thousands), each looked up in media by element: not a scan of every
      -- product's media.
      SELECT `c`.`id` FROM `categories` `c`
      WHERE EXISTS (SELECT 1 FROM `media` `m` WHERE `m`.`element_id` = `c`.`id` AND `m`.`url` IS NOT NULL)
    )
  );

-- References by manufacturer number (wire `targetKind: 'mpn'`, docs/shops.md "References by
-- manufacturer number"): the active masters the connector wrote for a key, found by the
-- manufacturer number (`manufacturerPid`) of the product as last written, a range seek instead
-- of a scan of the key's rows.
CREATE INDEX target_products_mpn_idx
  ON target_products (key_id, json_extract(product, '$.manufacturerPid'))
  WHERE active = 1 AND product IS NOT NULL;

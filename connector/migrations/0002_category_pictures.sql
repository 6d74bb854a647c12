-- What the connector last saw behind each category picture URL it handed a shop (docs/shops.md
-- "Category images"): a link has no content hash, so new bytes behind an unchanged URL are
-- noticed only by asking the URL again. Per key and URL the validators of the last answer
-- (ETag, Last-Modified) for a conditional request, and the sha256 of the bytes, compared when
-- the server answers 200 anyway. Checked when a record placed in the category is written.
CREATE TABLE category_pictures (
  key_id TEXT NOT NULL,
  url TEXT NOT NULL,
  etag TEXT,
  last_modified TEXT,
  sha256 TEXT NOT NULL,
  checked_at TEXT NOT NULL,
  PRIMARY KEY (key_id, url)
);

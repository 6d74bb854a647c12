-- A sync connection names its shop (issue 35, docs/shops.md "The PIM side"): the engine's kind,
-- URL and mapping (`shop`, JSON) and its credentials sealed like the connector secret
-- (`shop_credentials_ciphertext`, src/sync/secret-box.ts), sent as PUT /target before each run.
-- `mappings_max_batch_records` caches the X-Max-Batch-Records of GET /mappings with the mappings,
-- so batches for a slow shop are no larger than it asks.
ALTER TABLE `sync_connections` ADD `mappings_max_batch_records` integer;--> statement-breakpoint
ALTER TABLE `sync_connections` ADD `shop` text;--> statement-breakpoint
ALTER TABLE `sync_connections` ADD `shop_credentials_ciphertext` text;

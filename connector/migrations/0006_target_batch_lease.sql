-- A lease on a batch under way (docs/shops.md "A batch against a real shop"): the request that
-- opens a target batch holds it (`lease_owner`, a random id per request) until `lease_until`
-- (ISO time), renewed while it writes. A second request with the same batchId while the lease
-- holds is answered 503 with Retry-After and writes nothing; one after the first finished gets
-- the stored answer, one after the first died (lease run out) resumes the batch.
ALTER TABLE target_batches ADD COLUMN lease_owner TEXT;
ALTER TABLE target_batches ADD COLUMN lease_until TEXT;

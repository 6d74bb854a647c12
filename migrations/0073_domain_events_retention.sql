-- Review and completeness events (domain_events, migration 0069) are kept as long as the
-- history: the hourly history prune (src/history/retention.ts) deletes a company's events older
-- than its retention through this index, in bounded runs. Their change_feed rows stay behind,
-- as a pruned version's do (docs/changes-feed.md "Retention").
CREATE INDEX `domain_events_company_at_idx` ON `domain_events` (`company_id`,`at`);

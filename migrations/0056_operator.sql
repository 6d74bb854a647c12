-- The service operator (issue 33, docs/classification-releases.md "Who may load"): a property of
-- the user, not of a company membership. Only an operator changes the reference data every
-- company shares (loading and replacing classification releases); a company administrator keeps
-- everything of their own company. Granted out of band only (docs/deploy.md "The service
-- operator"): no API sets it. Existing users are not operators.
ALTER TABLE `users` ADD `is_operator` integer DEFAULT 0 NOT NULL;

-- The role the identity provider's groups last mapped a member to (docs/sso.md "Roles given by
-- hand"): a sign-in or SCIM change applies the mapping only when it maps to another role than
-- this, so a role an admin gave by hand lasts until the provider's mapped role changes. NULL
-- (every identity before this migration) applies the mapping as before, once.
ALTER TABLE `sso_identities` ADD `mapped_role` text;

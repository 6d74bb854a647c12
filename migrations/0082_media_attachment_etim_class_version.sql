-- Issue 32: what an ETIM xChange attachment (and an ETIM BMEcat UDX.EDXF.MIME) says of a media
-- entry beyond its purpose: the AttachmentType code when it is neither ATX018 nor ATX099, the
-- document's languages (ISO 639-2), its issue and expiry dates, as JSON (docs/data-model.md
-- "Media"). Null for every other entry, so stored entries keep their form and history.
ALTER TABLE `media` ADD `attachment` text;

-- Issue 32: the version of the ETIM class a supplier classified against (xChange EtimClassVersion)
-- and, for the ETIM DYNAMIC release, the date of the model it used (EtimDynamicReleaseDate), with
-- the product's class (docs/data-model.md "Classification"). Null when the file gave none.
ALTER TABLE `classification_link_classes` ADD `class_version` integer;
ALTER TABLE `classification_link_classes` ADD `dynamic_release_date` text;

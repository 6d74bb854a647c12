-- Issue 32: what an ETIM xChange attachment (and an ETIM BMEcat UDX.EDXF.MIME) says of a media
-- entry beyond its purpose: the AttachmentType code when it is neither ATX018 nor ATX099, the
-- document's languages (ISO 639-2), its issue and expiry dates, as JSON (docs/data-model.md
-- "Media"). Null for every other entry, so stored entries keep their form and history.
ALTER TABLE `media` ADD `attachment` text;

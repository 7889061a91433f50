-- An export asked for with utf8Bom: its file starts with the UTF-8 byte-order mark, by which
-- spreadsheets (Excel above all) recognise UTF-8 and show names such as "Möller" as written.
ALTER TABLE audience_exports ADD COLUMN utf8_bom boolean NOT NULL DEFAULT false;

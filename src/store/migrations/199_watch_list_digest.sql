-- A watch list's daily mail digest: where it goes (null: none) and the network-clock time up to
-- which changes were digested, so that each change is in one digest and a restart sends none twice.
ALTER TABLE watch_lists ADD COLUMN digest_email text;
ALTER TABLE watch_lists ADD COLUMN digest_through timestamptz;

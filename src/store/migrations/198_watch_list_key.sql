-- The API key a watch list was created with. Its checks are charged to that key as well as to the
-- account, so a key's daily credit cap holds for the checks it set going; null for a list made
-- without a key (the dashboard, an assistant signed in through OAuth), whose checks no key caps.
ALTER TABLE watch_lists ADD COLUMN api_key_id bigint;

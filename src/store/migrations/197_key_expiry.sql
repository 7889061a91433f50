-- Keys that can be changed: an expiry (a key past it is refused on every surface, as a revoked
-- one), and the key a rotation replaced it with, whose overlap window is the old key's expiry.
ALTER TABLE api_keys
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN replaced_by_key bigint;

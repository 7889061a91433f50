-- The instance running an in-flight claim: the second key of a session advisory lock that the
-- instance holds while it lives (lock space -1, see src/store/db.ts), and when it claimed. A
-- repeat that finds the claim's owner gone (its lock free, a few seconds after the claim) takes
-- the claim over at once, rather than after the lease.
ALTER TABLE idempotent_requests ADD COLUMN owner integer, ADD COLUMN claimed_at timestamptz;

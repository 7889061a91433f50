-- Token buckets of the rate limits when RATE_LIMIT_STORE=database, shared by every instance.
-- Unlogged: losing them in a crash only refills everyone's buckets, and they are written on
-- every request, so WAL for them would be pure cost.
CREATE UNLOGGED TABLE rate_limit_buckets (
  subject     text NOT NULL,
  rate_class  text NOT NULL,
  tokens      double precision NOT NULL,
  allowed     boolean NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (subject, rate_class)
);

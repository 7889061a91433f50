-- Idempotent retries (Idempotency-Key on POST): the first answer to a key, replayed to repeats
-- of the same request for 24 hours. Keyed by account, so it distributes with the account's data.
CREATE TABLE idempotent_requests (
  account_id      bigint NOT NULL,
  key             text NOT NULL,
  request_hash    text NOT NULL,
  operation_id    text NOT NULL,
  -- in_flight until the first request answers; then done with its answer.
  state           text NOT NULL CHECK (state IN ('in_flight', 'done')),
  response_status integer,
  response_body   text,
  -- An in-flight claim whose process died is taken over after this.
  locked_until    timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotent_requests_age ON idempotent_requests (created_at);

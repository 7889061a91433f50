-- State of the MCP gateway's guards that must hold across instances behind a load balancer.

-- The HMAC key of confirmation tokens and elicitation state when SIGNING_SECRET is not set:
-- created once by whichever instance starts first, read by all.
CREATE TABLE mcp_signing_keys (
  name text PRIMARY KEY,
  secret bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Confirmation tokens already redeemed: a token is single-use on every instance.
CREATE TABLE mcp_used_confirmations (
  account_id bigint NOT NULL,
  token_id text NOT NULL,
  operation_id text NOT NULL,
  used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, token_id)
);
CREATE INDEX mcp_used_confirmations_expiry ON mcp_used_confirmations (expires_at);

-- The last answer of a status operation per account, operation and resource (the canonical
-- payload), so that a poll sooner than the documented interval is answered without the backend.
CREATE TABLE mcp_poll_cache (
  account_id bigint NOT NULL,
  operation_id text NOT NULL,
  resource_key text NOT NULL,
  answer jsonb NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, operation_id, resource_key)
);
CREATE INDEX mcp_poll_cache_fetched ON mcp_poll_cache (fetched_at);

-- Full answers that were cut to fit the response budget: already charged, so kept for a day
-- and served free in slices.
CREATE TABLE mcp_stored_results (
  account_id bigint NOT NULL,
  result_id text NOT NULL,
  operation_id text NOT NULL,
  answer jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, result_id)
);
CREATE INDEX mcp_stored_results_expiry ON mcp_stored_results (expires_at);

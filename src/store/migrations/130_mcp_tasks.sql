-- MCP tasks (the io.modelcontextprotocol/tasks extension): the durable handle an agent polls for a
-- long-running operation. A task maps to the job its operation started through the status call
-- that follows it (status_operation_id with status_input, e.g. getAudienceStatus {audienceId}),
-- so any instance answers tasks/get, and a restart loses nothing. Keyed by account: a task of
-- another account is not found.
CREATE TABLE mcp_tasks (
  account_id bigint NOT NULL,
  task_id text NOT NULL,
  -- The operation the tools/call ran (or, while input_required, will run once confirmed).
  operation_id text NOT NULL,
  -- Its validated fields: run as they are once the person agrees.
  fields jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('input_required', 'working', 'completed', 'failed', 'cancelled')),
  status_message text,
  -- While input_required: the question's key (unique over the task's life) and what it says.
  input_key text,
  input_request jsonb,
  -- Once the job started: the status call that reads it.
  status_operation_id text,
  status_input jsonb,
  -- Terminal answers, kept as first seen so every later tasks/get gives the same.
  result jsonb,
  error jsonb,
  poll_interval_ms integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, task_id)
);
CREATE INDEX mcp_tasks_expiry ON mcp_tasks (expires_at);

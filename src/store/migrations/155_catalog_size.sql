-- How many companies and people this instance's catalog holds, counted after each seed and import
-- (src/core/catalog-size.ts), so that operation descriptions, search_endpoints, llms.txt and
-- openapi.json state this catalog's size rather than a number written in the code. One row.
CREATE TABLE catalog_size (
  singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  companies  bigint NOT NULL CHECK (companies >= 0),
  people     bigint NOT NULL CHECK (people >= 0),
  counted_at timestamptz NOT NULL DEFAULT now()
);

-- The MCP poll cache (src/mcp/guards/polling.ts) serves an account's status answer only while no job
-- of that account finished since it was fetched: the read it makes for each early poll.
CREATE INDEX jobs_account_finished ON jobs (account_id, finished_at) WHERE finished_at IS NOT NULL;

-- migrate: no-transaction
-- The headquartersStateName filter compares lower(state_name): an index on the bare column
-- cannot serve it, so a state filter read the whole table. This one can. Built concurrently, as
-- every index on a catalog table is (docs/decisions/0011-migrations.md): on a large catalog a
-- plain build would block writes to companies for as long as it runs.
CREATE INDEX CONCURRENTLY IF NOT EXISTS companies_state_lower ON companies (lower(state_name), id);
DROP INDEX CONCURRENTLY IF EXISTS companies_state;

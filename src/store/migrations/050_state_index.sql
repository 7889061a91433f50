-- The headquartersStateName filter compares lower(state_name): an index on the bare column
-- cannot serve it, so a state filter read the whole table. This one can.
DROP INDEX IF EXISTS companies_state;
CREATE INDEX IF NOT EXISTS companies_state_lower ON companies (lower(state_name), id);

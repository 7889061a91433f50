-- The operation a charge was made for, as people call it (peopleSearch), beside its metered unit
-- (getPersonFromDb): several operations share a unit, and the request log that could tell them
-- apart keeps only 30 days. Null: a grant, a purchase, a job's charge (named from its reference),
-- or an entry written before this column.
ALTER TABLE credit_ledger ADD COLUMN operation_id text;

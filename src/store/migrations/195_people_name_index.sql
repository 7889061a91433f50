-- migrate: no-transaction
-- matchPeople finds a person by name when a row names no company, or a company the person has left:
-- by last name, then first name. Built concurrently (docs/decisions/0011-migrations.md), as the other
-- people indexes are.
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_name_lower ON people (lower(last_name), lower(first_name));

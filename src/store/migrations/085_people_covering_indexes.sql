-- migrate: no-transaction
-- A people page reads its matches in id order and stops at the page's end. The filters people use
-- most (titles, countries, years of experience, current companies, company exclusion lists) are
-- then read from these indexes alone (index-only scans), and only the page's own rows from the
-- table: a row of people is over a kilobyte, an entry here about 60 bytes. Measured at 10,000,000
-- people in docs/benchmarks.md (search-large). Built concurrently (docs/decisions/0011-migrations.md):
-- at that size a plain build blocks writes to people for minutes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_search_cover ON people (id) INCLUDE (country3, years_experience, company_id, title);
-- The current-companies read: the people of the given companies, in id order per company.
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_company_cover ON people (company_id, id) INCLUDE (country3, years_experience, title);
DROP INDEX CONCURRENTLY IF EXISTS people_company;
-- A title substring's share of people is estimated from the sampled titles: with the default 100
-- the estimate of one title (say "VP of Sales") ranged from 50 times too low to twice too high
-- between two ANALYZE runs at 10,000,000 people, and the planner then swapped a 5 ms index-only
-- read for a 1 to 3 s bitmap read of the table. A larger sample keeps the common titles' shares exact.
ALTER TABLE people ALTER COLUMN title SET STATISTICS 1000;
ANALYZE people (title);

-- migrate: no-transaction
-- A title filter is a case-insensitive substring test, and a page in id order runs it on every
-- index entry it walks past: over 500,000 for a page of 1000 "VP of Sales" in the USA at
-- 10,000,000 people, where the test took most of the time (docs/benchmarks.md, search-large). A title
-- that contains a text contains each of the text's pairs of bytes, so a 63-bit mask of the pairs
-- (one bit per pair, by a hash) rules out most titles with one integer comparison: the covering
-- indexes store the title's mask beside it, and src/core/search/people-filters.ts tests it before
-- the substring. Bits 0 to 62 only, so that masks are never negative. COST 1: the planner should
-- see the mask as the cheap value the indexes hold, not as a function to run per row.
--
-- Built concurrently (docs/decisions/0011-migrations.md): on a large catalog a plain build blocks
-- writes to people for minutes. An index that changes its definition but keeps its name is built
-- beside the old one under a second name, which takes the name once the old one is dropped, so
-- searches never go without it.
CREATE OR REPLACE FUNCTION title_bigram_mask(title text) RETURNS bigint
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
DECLARE
  bytes bytea := convert_to(lower(title), 'UTF8');
  mask bigint := 0;
BEGIN
  FOR i IN 0 .. length(bytes) - 2 LOOP
    mask := mask | (1::bigint << ((get_byte(bytes, i) * 31 + get_byte(bytes, i + 1)) % 63));
  END LOOP;
  RETURN mask;
END
$$;
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_search_cover_masked ON people (id, title_bigram_mask(title)) INCLUDE (country3, years_experience, company_id, title);
DROP INDEX CONCURRENTLY IF EXISTS people_search_cover;
ALTER INDEX IF EXISTS people_search_cover_masked RENAME TO people_search_cover;
-- One country (the most common people filter beside titles) is read in id order within the country,
-- from the index alone: this replaces people_country3 (country3, id).
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_country_cover ON people (country3, id, title_bigram_mask(title)) INCLUDE (years_experience, company_id, title);
DROP INDEX CONCURRENTLY IF EXISTS people_country3;
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_company_cover_masked ON people (company_id, id, title_bigram_mask(title)) INCLUDE (country3, years_experience, title);
DROP INDEX CONCURRENTLY IF EXISTS people_company_cover;
ALTER INDEX IF EXISTS people_company_cover_masked RENAME TO people_company_cover;

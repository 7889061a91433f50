-- migrate: no-transaction
-- Titles matched as words (issue 31): each profile keeps its title read as canonical words
-- (src/core/titles/normalise.ts: lowercase, decorations and stop words gone, abbreviations
-- expanded, plurals singular) between spaces, " vice president sales ", so that a filter is a
-- whole-word phrase test, `title_words LIKE '% vice president sales %'`, and "CTO" (read as
-- "chief technology officer") can no longer be found inside "Director". Beside it the mask of its
-- words (one of 63 bits per word, computed with the words), which the covering indexes hold in
-- place of the letter-pair mask of migration 086: a title that holds a phrase holds each of its
-- words, so one integer test rules out most entries before the phrase test, and the page plans of
-- docs/decisions/0006 keep their shape. Seniority and job function come from the same words.
--
-- The columns are filled by the loads (seed, import, live fetch); rows that a database held before
-- this migration are filled by the service's start (src/seed/title-terms.ts) in batches, until
-- which they match no title filter. Built concurrently (docs/decisions/0011-migrations.md), each
-- index beside the one it replaces, so searches never go without one.
ALTER TABLE people ADD COLUMN IF NOT EXISTS title_words text;
ALTER TABLE people ADD COLUMN IF NOT EXISTS title_mask bigint;
ALTER TABLE people ADD COLUMN IF NOT EXISTS seniority text;
ALTER TABLE people ADD COLUMN IF NOT EXISTS job_function text;
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_search_cover_words ON people (id, title_mask) INCLUDE (country3, years_experience, company_id, title_words, seniority, job_function);
DROP INDEX CONCURRENTLY IF EXISTS people_search_cover;
ALTER INDEX IF EXISTS people_search_cover_words RENAME TO people_search_cover;
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_country_cover_words ON people (country3, id, title_mask) INCLUDE (years_experience, company_id, title_words, seniority, job_function);
DROP INDEX CONCURRENTLY IF EXISTS people_country_cover;
ALTER INDEX IF EXISTS people_country_cover_words RENAME TO people_country_cover;
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_company_cover_words ON people (company_id, id, title_mask) INCLUDE (country3, years_experience, title_words, seniority, job_function);
DROP INDEX CONCURRENTLY IF EXISTS people_company_cover;
ALTER INDEX IF EXISTS people_company_cover_words RENAME TO people_company_cover;
-- A rare phrase is found through its trigrams, as a rare substring was; the raw title's trigram
-- index served only the substring test and goes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_title_words_trgm ON people USING gin (title_words gin_trgm_ops);
DROP INDEX CONCURRENTLY IF EXISTS people_title_trgm;
-- The letter-pair mask's function served only the indexes just dropped.
DROP FUNCTION IF EXISTS title_bigram_mask(text);
-- As for the titles before (migration 085): the common titles' shares exact in the statistics.
ALTER TABLE people ALTER COLUMN title_words SET STATISTICS 1000;
ANALYZE people (title_words, seniority, job_function);

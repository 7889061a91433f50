-- migrate: no-transaction
-- A title's words in a text-search index beside the trigram one (docs/decisions/0008-counts.md):
-- a phrase of ordinary words ("% chief revenue officer %") has some twenty trigrams, several of
-- which ("er ", "ice", " of") are in millions of titles, and a GIN scan reads all of their lists;
-- its three words' lists are short. Counts read through it when the planner would find a phrase's
-- titles by index rather than walk them in id order (src/core/search/count.ts); the phrase test
-- stays the LIKE, so what matches does not change. Built concurrently (docs/decisions/0011-migrations.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS people_title_words_tsv ON people USING gin (to_tsvector('simple', title_words));

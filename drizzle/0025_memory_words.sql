-- PostgreSQL's English stop list drops words that change what a memory says: negations ("does not eat meat",
-- "don't", "isn't" end in "t"), and "now", which tells the current state from an earlier one ("lives in Porto now").
-- A memory's full-text vector keeps them: its English lexemes plus those words, as the simple (unstemmed, no stop
-- words) configuration reads them, with their positions. Queries are read the same way (lib/memory/lexical.ts).
CREATE FUNCTION memory_fts(body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- Most texts hold none of the words: the regular expression spares them the second parse.
  SELECT CASE WHEN body !~* '\m(no|nor|not|don|t|now)\M'
    THEN pg_catalog.to_tsvector('pg_catalog.english'::regconfig, body)
    ELSE pg_catalog.to_tsvector('pg_catalog.english'::regconfig, body)
      || (SELECT pg_catalog.ts_delete(words, ARRAY(
            SELECT w.lexeme FROM pg_catalog.unnest(words) AS w
            WHERE w.lexeme <> ALL (ARRAY['no', 'nor', 'not', 'don', 't', 'now'])))
          FROM pg_catalog.to_tsvector('pg_catalog.simple'::regconfig, body) AS words)
  END
$$;
--> statement-breakpoint
ALTER TABLE "memories" DROP COLUMN "fts";
--> statement-breakpoint
ALTER TABLE "memories" ADD COLUMN "fts" "tsvector" GENERATED ALWAYS AS (memory_fts(coalesce("text", ''))) STORED;
--> statement-breakpoint
CREATE INDEX "memories_user_fts_idx" ON "memories" USING gin ("user_id","fts");
--> statement-breakpoint
-- The lexical statistics count the vectors as they are now (the rewrite above fired no trigger); the vocabulary reads
-- words from the text, which did not change.
DELETE FROM memory_lexemes;
--> statement-breakpoint
INSERT INTO memory_lexemes (user_id, lexeme, docs)
SELECT m.user_id, l, count(*)::int
FROM memories m CROSS JOIN LATERAL unnest(tsvector_to_array(m.fts)) AS l
WHERE m.status = 'active'
GROUP BY m.user_id, l;
--> statement-breakpoint
UPDATE memory_corpus AS c SET lexemes = s.lexemes
FROM (SELECT user_id, sum(length(fts))::bigint AS lexemes FROM memories WHERE status = 'active' GROUP BY user_id) AS s
WHERE s.user_id = c.user_id;

CREATE TABLE "memory_corpus" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"docs" integer NOT NULL,
	"lexemes" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_lexemes" (
	"user_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"docs" integer NOT NULL,
	CONSTRAINT "memory_lexemes_pk" PRIMARY KEY("user_id","lexeme")
);
--> statement-breakpoint
ALTER TABLE "memory_corpus" ADD CONSTRAINT "memory_corpus_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_lexemes" ADD CONSTRAINT "memory_lexemes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Lexical ranking reads each user's own corpus statistics (BM25): memory_lexemes counts, per user, the active
-- memories holding each full-text lexeme (a term's rarity among *their* memories) and memory_corpus their active
-- memories and lexemes in all (the average length). Statement-level triggers keep both for every writer, as the
-- vocabulary's do, so a search reads a row per query term instead of counting matches. Changes are applied in key
-- order, so two statements for one user never wait on each other's rows crosswise.
CREATE FUNCTION memory_stats_shift(owners uuid[], vectors tsvector[], signs integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  -- One upsert in key order takes every row lock in that order, existing and new rows alike, so concurrent writers
  -- of one user queue instead of deadlocking. A user being deleted (with their memories) has no rows left to write.
  INSERT INTO memory_lexemes (user_id, lexeme, docs)
  SELECT r.u, l, sum(r.sign)::int
  FROM unnest(owners, vectors, signs) AS r(u, f, sign) CROSS JOIN LATERAL unnest(tsvector_to_array(r.f)) AS l
  WHERE EXISTS (SELECT 1 FROM users WHERE users.id = r.u)
  GROUP BY r.u, l HAVING sum(r.sign) <> 0
  ORDER BY r.u, l
  ON CONFLICT (user_id, lexeme) DO UPDATE SET docs = memory_lexemes.docs + excluded.docs;
  -- A lexeme no active memory holds any more is forgotten: after a purge nothing of the erased text stays here.
  DELETE FROM memory_lexemes t
  USING (SELECT DISTINCT r.u, l FROM unnest(owners, vectors, signs) AS r(u, f, sign)
         CROSS JOIN LATERAL unnest(tsvector_to_array(r.f)) AS l WHERE r.sign < 0) AS gone
  WHERE t.user_id = gone.u AND t.lexeme = gone.l AND t.docs <= 0;

  INSERT INTO memory_corpus (user_id, docs, lexemes)
  SELECT r.u, sum(r.sign)::int, sum(r.sign * length(r.f))::bigint
  FROM unnest(owners, vectors, signs) AS r(u, f, sign)
  WHERE EXISTS (SELECT 1 FROM users WHERE users.id = r.u)
  GROUP BY r.u ORDER BY r.u
  ON CONFLICT (user_id) DO UPDATE
    SET docs = memory_corpus.docs + excluded.docs, lexemes = memory_corpus.lexemes + excluded.lexemes;
END
$$;
--> statement-breakpoint
CREATE FUNCTION memory_stats_after_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM memory_stats_shift(array_agg(a.user_id), array_agg(a.fts), array_agg(1))
  FROM added a WHERE a.status = 'active';
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only rows whose text, or whether they count (active), changed: most updates bump a version or metadata.
CREATE FUNCTION memory_stats_after_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM memory_stats_shift(array_agg(c.user_id), array_agg(c.fts), array_agg(c.sign))
  FROM (
    SELECT r.user_id, r.fts, -1 AS sign
    FROM removed r JOIN added a ON a.user_id = r.user_id AND a.id = r.id
    WHERE r.status = 'active' AND (a.status <> 'active' OR a.fts IS DISTINCT FROM r.fts)
    UNION ALL
    SELECT a.user_id, a.fts, 1
    FROM removed r JOIN added a ON a.user_id = r.user_id AND a.id = r.id
    WHERE a.status = 'active' AND (r.status <> 'active' OR a.fts IS DISTINCT FROM r.fts)
  ) c;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION memory_stats_after_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM memory_stats_shift(array_agg(r.user_id), array_agg(r.fts), array_agg(-1))
  FROM removed r WHERE r.status = 'active';
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER memory_stats_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memory_stats_after_insert();
--> statement-breakpoint
CREATE TRIGGER memory_stats_update AFTER UPDATE ON memories
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memory_stats_after_update();
--> statement-breakpoint
CREATE TRIGGER memory_stats_delete AFTER DELETE ON memories
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION memory_stats_after_delete();
--> statement-breakpoint
INSERT INTO memory_lexemes (user_id, lexeme, docs)
SELECT m.user_id, l, count(*)::int FROM memories m CROSS JOIN LATERAL unnest(tsvector_to_array(m.fts)) AS l
WHERE m.status = 'active' GROUP BY m.user_id, l;
--> statement-breakpoint
INSERT INTO memory_corpus (user_id, docs, lexemes)
SELECT m.user_id, count(*)::int, sum(length(m.fts)) FROM memories m WHERE m.status = 'active' GROUP BY m.user_id;
--> statement-breakpoint
DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['memory_lexemes', 'memory_corpus']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', name);
    EXECUTE format(
      'CREATE POLICY %I ON %I USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id())',
      name || '_owner', name);
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON memory_lexemes, memory_corpus TO memory_ledger_app';
  END IF;
EXCEPTION
  WHEN insufficient_privilege THEN RAISE WARNING 'memory_ledger_app not granted: row-level security is not enforced';
END $$;
--> statement-breakpoint
-- The vocabulary's triggers insert in key order too: two writers adding the same new words in different orders
-- would otherwise wait on each other's uncommitted rows.
CREATE OR REPLACE FUNCTION memory_terms_after_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_terms (user_id, term)
  SELECT DISTINCT a.user_id, w.word FROM added a CROSS JOIN LATERAL memory_terms_of(a.text) AS w(word)
  ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION memory_terms_after_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_terms (user_id, term)
  SELECT DISTINCT a.user_id, w.word
  FROM added a
  JOIN removed r ON r.user_id = a.user_id AND r.id = a.id
  CROSS JOIN LATERAL memory_terms_of(a.text) AS w(word)
  WHERE a.purged_at IS NULL AND a.text IS DISTINCT FROM r.text
  ORDER BY 1, 2
  ON CONFLICT DO NOTHING;

  WITH gone AS MATERIALIZED (
    SELECT DISTINCT r.user_id, w.word AS term
    FROM removed r
    JOIN added a ON a.user_id = r.user_id AND a.id = r.id
    CROSS JOIN LATERAL memory_terms_of(r.text) AS w(word)
    WHERE a.purged_at IS NOT NULL AND r.purged_at IS NULL
  ), kept AS MATERIALIZED (
    SELECT DISTINCT m.user_id, w.word AS term
    FROM memories m
    CROSS JOIN LATERAL memory_terms_of(m.text) AS w(word)
    WHERE m.user_id IN (SELECT user_id FROM gone) AND m.purged_at IS NULL
  )
  DELETE FROM memory_terms t
  USING gone
  WHERE t.user_id = gone.user_id AND t.term = gone.term
    AND NOT EXISTS (SELECT 1 FROM kept WHERE kept.user_id = gone.user_id AND kept.term = gone.term);
  RETURN NULL;
END
$$;

-- Typo tolerance without scanning memories: each user's vocabulary (the words of their memories), kept by triggers
-- for every writer. Search looks a query word up here and, when the user never wrote it, swaps in the closest words
-- they did write (trigram similarity over a few thousand short terms instead of over every memory's text).
-- btree_gin lets a GIN index lead with user_id, so index scans stay inside one user's rows.
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
CREATE TABLE memory_terms (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  term text NOT NULL,
  CONSTRAINT memory_terms_pk PRIMARY KEY (user_id, term)
);
--> statement-breakpoint
CREATE INDEX memory_terms_trgm_idx ON memory_terms USING gin (user_id, term gin_trgm_ops);
--> statement-breakpoint
CREATE FUNCTION memory_terms_of(body text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT word FROM unnest(tsvector_to_array(to_tsvector('simple'::regconfig, coalesce(body, '')))) AS word
  WHERE length(word) BETWEEN 3 AND 40
$$;
--> statement-breakpoint
CREATE FUNCTION memory_terms_after_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_terms (user_id, term)
  SELECT DISTINCT a.user_id, w.word FROM added a CROSS JOIN LATERAL memory_terms_of(a.text) AS w(word)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A purge must not leave the erased text behind in the vocabulary: its words go unless another live memory of the
-- same user still uses them.
CREATE FUNCTION memory_terms_after_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_terms (user_id, term)
  SELECT DISTINCT a.user_id, w.word FROM added a CROSS JOIN LATERAL memory_terms_of(a.text) AS w(word)
  WHERE a.purged_at IS NULL
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
--> statement-breakpoint
CREATE TRIGGER memory_terms_insert AFTER INSERT ON memories
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_after_insert();
--> statement-breakpoint
CREATE TRIGGER memory_terms_update AFTER UPDATE ON memories
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION memory_terms_after_update();
--> statement-breakpoint
INSERT INTO memory_terms (user_id, term)
SELECT DISTINCT m.user_id, w.word FROM memories m CROSS JOIN LATERAL memory_terms_of(m.text) AS w(word)
WHERE m.purged_at IS NULL
ON CONFLICT DO NOTHING;

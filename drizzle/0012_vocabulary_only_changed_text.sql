-- Most updates of a memory change its status, version or metadata, not its text: only rows whose text changed add
-- words to the vocabulary (re-reading every updated row's words was wasted work on every delete and restore).
CREATE OR REPLACE FUNCTION memory_terms_after_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memory_terms (user_id, term)
  SELECT DISTINCT a.user_id, w.word
  FROM added a
  JOIN removed r ON r.user_id = a.user_id AND r.id = a.id
  CROSS JOIN LATERAL memory_terms_of(a.text) AS w(word)
  WHERE a.purged_at IS NULL AND a.text IS DISTINCT FROM r.text
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

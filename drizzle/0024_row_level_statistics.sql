-- The vocabulary (0008, 0012) and the lexical statistics (0015) were kept by statement-level triggers reading
-- transition tables, which Citus cannot run ("could not find named tuplestore"). Row-level triggers keep them now,
-- with the same figures, on PGlite, PostgreSQL and Citus alike: every statement they run names the row's user_id, so
-- once these tables are distributed by user it touches one shard. Dropping the old triggers first also holds off
-- writers of memories until this migration commits, so the backfill below cannot miss a write.
DROP TRIGGER memory_terms_insert ON memories;
--> statement-breakpoint
DROP TRIGGER memory_terms_update ON memories;
--> statement-breakpoint
DROP TRIGGER memory_stats_insert ON memories;
--> statement-breakpoint
DROP TRIGGER memory_stats_update ON memories;
--> statement-breakpoint
DROP TRIGGER memory_stats_delete ON memories;
--> statement-breakpoint
DROP FUNCTION memory_terms_after_insert();
--> statement-breakpoint
DROP FUNCTION memory_terms_after_update();
--> statement-breakpoint
DROP FUNCTION memory_stats_after_insert();
--> statement-breakpoint
DROP FUNCTION memory_stats_after_update();
--> statement-breakpoint
DROP FUNCTION memory_stats_after_delete();
--> statement-breakpoint
DROP FUNCTION memory_stats_shift(uuid[], tsvector[], integer[]);
--> statement-breakpoint
-- The vocabulary is reference-counted: `docs` is how many of the user's memories not purged (deleted ones too) hold
-- the word in their current text, so an edit takes the words only the old text had out again, and a purge leaves
-- nothing of any earlier version behind (it used to keep the words an edit had replaced). Counted afresh from the
-- current texts, which drops such leftovers.
ALTER TABLE memory_terms ADD COLUMN docs integer NOT NULL DEFAULT 0;
--> statement-breakpoint
DELETE FROM memory_terms;
--> statement-breakpoint
INSERT INTO memory_terms (user_id, term, docs)
SELECT m.user_id, w.term, count(*)::int
FROM memories m CROSS JOIN LATERAL memory_terms_of(m.text) AS w(term)
WHERE m.purged_at IS NULL
GROUP BY m.user_id, w.term;
--> statement-breakpoint
ALTER TABLE memory_terms ALTER COLUMN docs DROP DEFAULT;
--> statement-breakpoint
-- One memory of `owner_id` stops counting as (old_text, old_fts) and counts as (new_text, new_fts) instead: the texts
-- for the vocabulary (null: the memory is purged there), the vectors for the statistics (null: not active). Words and
-- lexemes both sides hold cancel out, so an edit touches only what it changed.
CREATE FUNCTION memory_statistics_move(owner_id uuid, old_text text, new_text text, old_fts tsvector, new_fts tsvector)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  gone text[];
BEGIN
  IF old_text IS NOT DISTINCT FROM new_text THEN
    old_text := NULL;
    new_text := NULL;
  END IF;
  IF old_fts IS NOT DISTINCT FROM new_fts THEN
    old_fts := NULL;
    new_fts := NULL;
  END IF;
  IF num_nonnulls(old_text, new_text, old_fts, new_fts) = 0 THEN
    RETURN;
  END IF;
  -- A user being deleted takes their memories and these rows in one cascade: there is nothing left to count.
  IF NOT EXISTS (SELECT 1 FROM users WHERE users.id = owner_id) THEN
    RETURN;
  END IF;

  -- The user's corpus row first, on every change: its lock, held to commit, queues concurrent writers of one user
  -- before either holds a lexeme or a word, and each table's upsert below goes in key order, so they never wait on
  -- each other's rows crosswise, however many rows a statement changes.
  INSERT INTO memory_corpus (user_id, docs, lexemes)
  VALUES (owner_id, (new_fts IS NOT NULL)::int - (old_fts IS NOT NULL)::int,
          coalesce(length(new_fts), 0) - coalesce(length(old_fts), 0))
  ON CONFLICT (user_id) DO UPDATE
    SET docs = memory_corpus.docs + excluded.docs, lexemes = memory_corpus.lexemes + excluded.lexemes;

  IF old_fts IS NOT NULL OR new_fts IS NOT NULL THEN
    INSERT INTO memory_lexemes (user_id, lexeme, docs)
    SELECT owner_id, c.lexeme, sum(c.sign)::int
    FROM (SELECT l, -1 FROM unnest(tsvector_to_array(old_fts)) AS l
          UNION ALL
          SELECT l, 1 FROM unnest(tsvector_to_array(new_fts)) AS l) AS c(lexeme, sign)
    GROUP BY c.lexeme HAVING sum(c.sign) <> 0
    ORDER BY c.lexeme
    ON CONFLICT (user_id, lexeme) DO UPDATE SET docs = memory_lexemes.docs + excluded.docs;
    -- A lexeme no active memory holds any more is forgotten: after a purge nothing of the erased text stays here.
    IF old_fts IS NOT NULL THEN
      DELETE FROM memory_lexemes
      WHERE user_id = owner_id AND lexeme = ANY (tsvector_to_array(old_fts)) AND docs <= 0;
    END IF;
  END IF;

  IF old_text IS NOT NULL OR new_text IS NOT NULL THEN
    gone := ARRAY(SELECT memory_terms_of(old_text));
    INSERT INTO memory_terms (user_id, term, docs)
    SELECT owner_id, c.term, sum(c.sign)::int
    FROM (SELECT w.term, -1 FROM unnest(gone) AS w(term)
          UNION ALL
          SELECT w.term, 1 FROM memory_terms_of(new_text) AS w(term)) AS c(term, sign)
    GROUP BY c.term HAVING sum(c.sign) <> 0
    ORDER BY c.term
    ON CONFLICT (user_id, term) DO UPDATE SET docs = memory_terms.docs + excluded.docs;
    -- So is a word no memory of the user still holds.
    DELETE FROM memory_terms WHERE user_id = owner_id AND term = ANY (gone) AND docs <= 0;
  END IF;
END
$$;
--> statement-breakpoint
-- A new memory only adds: one statement for the three tables instead of the general move's several, since bulk
-- inserts run it once a row. The user exists (the row's own foreign key was checked first).
CREATE FUNCTION memory_statistics_add(owner_id uuid, new_text text, new_fts tsvector) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH corpus AS (
    INSERT INTO memory_corpus (user_id, docs, lexemes)
    VALUES (owner_id, (new_fts IS NOT NULL)::int, coalesce(length(new_fts), 0))
    ON CONFLICT (user_id) DO UPDATE
      SET docs = memory_corpus.docs + excluded.docs, lexemes = memory_corpus.lexemes + excluded.lexemes
    RETURNING 1
  ), lexemes AS (
    INSERT INTO memory_lexemes (user_id, lexeme, docs)
    SELECT owner_id, l, 1 FROM unnest(tsvector_to_array(new_fts)) AS l ORDER BY l
    ON CONFLICT (user_id, lexeme) DO UPDATE SET docs = memory_lexemes.docs + 1
    RETURNING 1
  )
  INSERT INTO memory_terms (user_id, term, docs)
  SELECT owner_id, w.term, 1 FROM memory_terms_of(new_text) AS w(term) ORDER BY w.term
  ON CONFLICT (user_id, term) DO UPDATE SET docs = memory_terms.docs + 1;
END
$$;
--> statement-breakpoint
CREATE FUNCTION memory_statistics_after_row() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  old_text text;
  new_text text;
  old_fts tsvector;
  new_fts tsvector;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD.purged_at IS NULL THEN
      old_text := OLD.text;
    END IF;
    IF OLD.status = 'active' THEN
      old_fts := OLD.fts;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NEW.purged_at IS NULL THEN
      new_text := NEW.text;
    END IF;
    IF NEW.status = 'active' THEN
      new_fts := NEW.fts;
    END IF;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM memory_statistics_add(NEW.user_id, new_text, new_fts);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM memory_statistics_move(OLD.user_id, old_text, NULL, old_fts, NULL);
  ELSIF OLD.user_id = NEW.user_id THEN
    PERFORM memory_statistics_move(NEW.user_id, old_text, new_text, old_fts, new_fts);
  ELSE
    PERFORM memory_statistics_move(OLD.user_id, old_text, NULL, old_fts, NULL);
    PERFORM memory_statistics_move(NEW.user_id, NULL, new_text, NULL, new_fts);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A batch insert may count its rows itself, set-wise, after the insert (lib/memory/bulk-statistics.ts): it says so
-- with SET LOCAL app.bulk_statistics = 'on' around the insert, which Citus forwards to the shards too.
CREATE TRIGGER memory_statistics_insert AFTER INSERT ON memories
  FOR EACH ROW WHEN (
    (NEW.purged_at IS NULL OR NEW.status = 'active')
    AND current_setting('app.bulk_statistics', true) IS DISTINCT FROM 'on'
  )
  EXECUTE FUNCTION memory_statistics_after_row();
--> statement-breakpoint
-- Most updates bump a version, metadata, a pin or dates: the trigger runs only for a row whose text changed (and so
-- its fts), or whether it counts (active; not purged).
CREATE TRIGGER memory_statistics_update AFTER UPDATE ON memories
  FOR EACH ROW WHEN (
    OLD.text IS DISTINCT FROM NEW.text
    OR OLD.status IS DISTINCT FROM NEW.status
    OR (OLD.purged_at IS NULL) <> (NEW.purged_at IS NULL)
    OR OLD.user_id <> NEW.user_id
  )
  EXECUTE FUNCTION memory_statistics_after_row();
--> statement-breakpoint
CREATE TRIGGER memory_statistics_delete AFTER DELETE ON memories
  FOR EACH ROW WHEN (OLD.purged_at IS NULL OR OLD.status = 'active')
  EXECUTE FUNCTION memory_statistics_after_row();

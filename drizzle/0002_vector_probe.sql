-- pgvector is optional: PGlite loads it, many PostgreSQL servers lack it. Try to create it and record the outcome
-- so the app can report it and leave vector-only objects out instead of failing the migration.
DO $$
DECLARE
  available boolean;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS vector;
    available := true;
  EXCEPTION WHEN OTHERS THEN
    available := false;
  END;
  INSERT INTO app_meta (key, value) VALUES ('vector', to_jsonb(available))
  ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now();
END $$;

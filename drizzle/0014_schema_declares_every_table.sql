-- memory_terms (0008) and memory_embeddings (0004, only where pgvector exists) are now declared in
-- lib/db/schema.ts, so types and later generated migrations cover them. Both tables already exist: this only gives
-- the vocabulary's foreign key the name drizzle gives it.
ALTER TABLE memory_terms RENAME CONSTRAINT memory_terms_user_id_fkey TO memory_terms_user_id_users_id_fk;
--> statement-breakpoint
-- Every table of per-user rows the app reads in a unit of work bound to a user gets the same second wall as the
-- memory tables (0010): extraction runs, the audit log and API keys. Key lookup by hash, which precedes knowing the
-- user, runs as the tables' owner, which policies do not restrict.
DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['extraction_runs', 'audit_log', 'api_keys']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', name);
    EXECUTE format(
      'CREATE POLICY %I ON %I USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id())',
      name || '_owner', name);
  END LOOP;
END $$;

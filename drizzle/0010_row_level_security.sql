-- Row-level security as a second wall behind every query's own user_id condition. The app connects as the tables'
-- owner (or a superuser), which policies do not restrict; the memory core and the chat store run their statements in
-- transactions that switch to the unprivileged role below and set app.user_id (lib/db/principal.ts), so a statement
-- that forgot its WHERE there still sees and writes only that user's rows.
-- Roles belong to the whole server: create it once, tolerate a concurrent creator, and carry on without it (with a
-- warning) where the connecting user may not create roles; the runtime then only sets app.user_id.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    CREATE ROLE memory_ledger_app NOLOGIN;
  END IF;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN NULL;
  WHEN insufficient_privilege THEN RAISE WARNING 'memory_ledger_app role not created: row-level security is not enforced';
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    IF NOT pg_has_role(current_user, 'memory_ledger_app', 'MEMBER') THEN
      EXECUTE format('GRANT memory_ledger_app TO %I', current_user);
    END IF;
    EXECUTE 'GRANT USAGE ON SCHEMA public TO memory_ledger_app';
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO memory_ledger_app';
    EXECUTE 'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO memory_ledger_app';
    EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO memory_ledger_app';
  END IF;
EXCEPTION
  WHEN insufficient_privilege THEN RAISE WARNING 'memory_ledger_app not granted: row-level security is not enforced';
END $$;
--> statement-breakpoint
CREATE FUNCTION app_user_id() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT nullif(current_setting('app.user_id', true), '')::uuid $$;
--> statement-breakpoint
DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['memories', 'memory_versions', 'memory_terms', 'memory_embeddings', 'memory_access',
                               'threads', 'messages']
  LOOP
    IF to_regclass(name) IS NOT NULL THEN
      EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', name);
      EXECUTE format(
        'CREATE POLICY %I ON %I USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id())',
        name || '_owner', name);
    END IF;
  END LOOP;
END $$;

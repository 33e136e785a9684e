-- The role row-level security restricts was granted every table (0010), users and accounts included: a unit of work
-- could read any user's email, name and password hash. It needs none of that: work bound to a user only asks whether
-- its own user still exists (the statistics triggers of 0015 and 0024 run as it), and foreign keys are checked with
-- the tables' owner's rights. So it keeps the id column of its own users row and nothing of accounts.
-- On Citus, a write to a reference table with a key to users (api_keys, written as the role) locks users' shard
-- through lock_shard_resources, which demands a write privilege on users: the role gets DELETE there, and no policy
-- lets it delete a single row. Without the role (a login that may not create roles) there is nothing to change here,
-- and the app refuses to start on PostgreSQL (lib/db/client.ts).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    REVOKE ALL ON users, accounts FROM memory_ledger_app;
    GRANT SELECT (id) ON users TO memory_ledger_app;
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
      GRANT DELETE ON users TO memory_ledger_app;
    END IF;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY users_own_row ON users FOR SELECT USING (id = app_user_id());

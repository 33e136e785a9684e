-- Row-level security tests a table's policy before any condition of the query that is not leakproof, and the
-- full-text match (@@) is not: under the app role a search could not use the (user_id, fts) index for its terms and
-- read every memory of the user instead, so its cost grew with their memories rather than with the matches.
-- This view is the same rows as the policy lets through (the session's user, app.user_id), read with its owner's
-- rights, which the policy does not restrict: conditions on it reach the index. The app role may only read it.
-- It lists the columns memories has now: a migration that adds, drops or retypes one recreates it.
CREATE VIEW own_memories AS SELECT * FROM memories WHERE user_id = app_user_id();
--> statement-breakpoint
REVOKE ALL ON own_memories FROM PUBLIC;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'memory_ledger_app') THEN
    REVOKE ALL ON own_memories FROM memory_ledger_app;
    GRANT SELECT ON own_memories TO memory_ledger_app;
  END IF;
EXCEPTION
  WHEN insufficient_privilege THEN RAISE WARNING 'own_memories not granted to memory_ledger_app';
END $$;

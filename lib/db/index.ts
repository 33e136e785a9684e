import { config } from "@/lib/config";
import { clearProcessState, processState } from "@/lib/process-state";
import { type Database, openPglite, openPostgres } from "./client";

export type { Database, Db } from "./client";

/**
 * The process-wide database, opened on first use: one per process, since two PGlite instances on one directory
 * corrupt it. A failed open is tried again next time.
 */
export function getDatabase(): Promise<Database> {
  return processState("database", () =>
    openConfigured().catch((error) => {
      clearProcessState("database");
      throw error;
    }),
  );
}

/**
 * PostgreSQL at DATABASE_URL with DATABASE_POOL_SIZE connections (on Citus each can hold a connection to every worker
 * it reached: docs/configuration.md "Running distributed"), else PGlite in PGLITE_DIR.
 */
function openConfigured(): Promise<Database> {
  const { DATABASE_URL, DATABASE_POOL_SIZE, PGLITE_DIR } = config();
  if (DATABASE_URL) return openPostgres(DATABASE_URL, { max: DATABASE_POOL_SIZE });
  return openPglite(PGLITE_DIR);
}

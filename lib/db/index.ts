import { type Database, openPglite, openPostgres } from "./client";

export type { Database, Db } from "./client";

const SLOT = Symbol.for("memory-ledger.database");
type Slot = { [SLOT]?: Promise<Database> };

/**
 * The process-wide database, opened on first use. Kept on globalThis because Next can evaluate this module in
 * several bundles of one process, and two PGlite instances on one directory corrupt it.
 */
export function getDatabase(): Promise<Database> {
  const slot = globalThis as Slot;
  if (!slot[SLOT]) {
    slot[SLOT] = openFromEnv().catch((error) => {
      slot[SLOT] = undefined;
      throw error;
    });
  }
  return slot[SLOT];
}

function openFromEnv(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) return openPostgres(url);
  return openPglite(process.env.PGLITE_DIR || ".data/pglite");
}

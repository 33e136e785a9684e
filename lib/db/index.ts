import { z } from "zod";
import { clearProcessState, processState } from "@/lib/process-state";
import { type Database, openPglite, openPostgres } from "./client";

export type { Database, Db } from "./client";

/**
 * The process-wide database, opened on first use: one per process, since two PGlite instances on one directory
 * corrupt it. A failed open is tried again next time.
 */
export function getDatabase(): Promise<Database> {
  return processState("database", () =>
    openFromEnv().catch((error) => {
      clearProcessState("database");
      throw error;
    }),
  );
}

const poolSizeSchema = z.coerce.number().int().min(1).max(500);

/**
 * DATABASE_POOL_SIZE: connections this process keeps to PostgreSQL (the job queue keeps 4 more), a whole number from
 * 1 to 500; 10 when unset. On Citus each can hold a connection to every worker it reached
 * (docs/configuration.md "Running distributed"). A value that is not one stops the start instead of silently using another size.
 */
export function databasePoolSize(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.DATABASE_POOL_SIZE?.trim();
  if (!raw) return 10;
  const parsed = poolSizeSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`DATABASE_POOL_SIZE must be a whole number from 1 to 500, not "${raw}".`);
  return parsed.data;
}

function openFromEnv(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) return openPostgres(url, { max: databasePoolSize() });
  return openPglite(process.env.PGLITE_DIR || ".data/pglite");
}

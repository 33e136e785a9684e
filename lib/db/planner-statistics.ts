import { sql } from "drizzle-orm";
import { logFailure } from "@/lib/log";
import type { Database } from "./client";

/**
 * When a table's planner statistics are stale: PostgreSQL's autovacuum defaults (autovacuum_analyze_threshold 50,
 * autovacuum_analyze_scale_factor 0.1), rows changed since its last ANALYZE against its live rows.
 */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;
/** How often a PGlite process looks for stale tables: a catalog read, so cheap when nothing changed. */
const CHECK_EVERY_MS = 15_000;

/**
 * ANALYZEs every table (the app's and the job queue's) with more changed rows than autovacuum would let pass, and
 * returns them as `schema.table`. PGlite runs no autovacuum, so without this its planner never has statistics: it
 * reads every table as a handful of rows, and a user's vector search, planned as a nested loop over their memories
 * and all their vectors, took 1.9 s at 1,000 memories instead of 24 ms (docs/performance.md, "What keeps search
 * fast").
 */
export async function analyzeChangedTables(database: Database): Promise<string[]> {
  // A backend sends its row counts to the statistics at most once a second, when it goes idle: first, whatever it
  // holds back.
  await database.unbound.rows(sql`select pg_stat_force_next_flush()`);
  const stale = await database.unbound.rows<{ schema: string; table: string }>(sql`
    select schemaname as schema, relname as table from pg_stat_user_tables
    where n_mod_since_analyze > ${sql.raw(String(ANALYZE_THRESHOLD))} + ${sql.raw(String(ANALYZE_SCALE_FACTOR))} * n_live_tup
    order by schemaname, relname`);
  for (const { schema, table } of stale) {
    await database.unbound.rows(sql`analyze ${sql.identifier(schema)}.${sql.identifier(table)}`);
  }
  return stale.map(({ schema, table }) => `${schema}.${table}`);
}

/**
 * What autovacuum's analyze does on PostgreSQL, for the process that holds a PGlite database: looks for stale tables
 * now and every CHECK_EVERY_MS, one look at a time. Returns a function that stops it.
 */
export function keepPlannerStatistics(database: Database, everyMs = CHECK_EVERY_MS): () => void {
  let looking = false;
  const look = async () => {
    if (looking) return;
    looking = true;
    try {
      await analyzeChangedTables(database);
    } catch (error) {
      logFailure("could not refresh the planner's statistics", error, "warn");
    } finally {
      looking = false;
    }
  };
  void look();
  const timer = setInterval(look, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

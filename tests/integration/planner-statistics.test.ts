import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { analyzeChangedTables, keepPlannerStatistics } from "@/lib/db/planner-statistics";
import { createMemories } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { openMigratedPglite } from "../support/databases";

// PGlite runs no autovacuum: the process that holds it gathers the planner's statistics (lib/db/planner-statistics.ts).
let database: Database;
beforeAll(async () => {
  database = await openMigratedPglite();
});
afterAll(() => database.close());

const lastAnalyzed = async (table: string) => {
  const [row] = await database.unbound.rows<{ at: string | null; changed: number }>(sql`
    select last_analyze::text as at, n_mod_since_analyze::int as changed from pg_stat_user_tables
    where schemaname = 'public' and relname = ${table}`);
  return row;
};

it("analyzes the tables changed past autovacuum's threshold, and only those", async () => {
  await analyzeChangedTables(database);
  const ctx = contextFor(database, await createUser(database));
  await createMemories(
    ctx,
    Array.from({ length: 120 }, (_, index) => ({ content: `a note about the garden, part ${index}` })),
  );
  await database.unbound.rows(sql`select pg_stat_force_next_flush()`);
  expect(await lastAnalyzed("memories")).toMatchObject({ changed: 120 });

  const analyzed = await analyzeChangedTables(database);
  expect(analyzed).toContain("public.memories");
  expect(analyzed).not.toContain("public.users");
  expect(await lastAnalyzed("memories")).toMatchObject({ at: expect.any(String), changed: 0 });
  expect(await analyzeChangedTables(database)).toEqual([]);
});

it("keeps looking while the process runs", async () => {
  const stop = keepPlannerStatistics(database, 50);
  try {
    // Its first look analyzes what the test before left; the writes below come after it.
    await expect.poll(async () => (await lastAnalyzed("memories"))?.at, { timeout: 5_000 }).toEqual(expect.any(String));
    const before = (await lastAnalyzed("memories"))?.at;
    const ctx = contextFor(database, await createUser(database));
    await createMemories(
      ctx,
      Array.from({ length: 300 }, (_, index) => ({ content: `a note, part ${index}` })),
    );
    await expect.poll(async () => (await lastAnalyzed("memories"))?.at, { timeout: 5_000 }).not.toBe(before);
  } finally {
    stop();
  }
});

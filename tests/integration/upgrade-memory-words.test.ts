import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { createPglite, type Database, openPglite, openPostgres } from "@/lib/db/client";
import { distribute, prepareCitusMigration } from "@/lib/db/distribute";
import { expectStatisticsRecomputed } from "../memory/support";
import { createCitusDatabase } from "../support/citus";

/**
 * A database that holds memories from before migration 0025 (full-text vectors without negations and "now"), then
 * started by the app: every memory's vector is rewritten and the lexical statistics count the new vectors.
 */

const LAST_BEFORE = "0024_row_level_statistics";
const scratch = mkdtempSync(path.join(tmpdir(), "ml-upgrade-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The project's migrations up to LAST_BEFORE, as a folder the drizzle migrator reads. */
function migrationsBefore(): string {
  const folder = path.join(scratch, "drizzle");
  cpSync(path.join(process.cwd(), "drizzle"), folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: Array<{ tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === LAST_BEFORE);
  expect(last).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

const TEXTS = [
  ["Ana lives in Porto now", "active"],
  ["User does not eat meat", "active"],
  ["User used to live in Lisbon, not now", "deleted"],
] as const;

/** One user and their memories, written as the app wrote them before (the statistics triggers count them). */
async function seed(run: (text: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>) {
  const [user] = await run("insert into users (name) values ('upgraded') returning id::text as id", []);
  const userId = String(user?.id);
  for (const [text, status] of TEXTS) {
    await run(
      `insert into memories (user_id, namespace, key, kind, content, text, content_hash, status, version, metadata,
         source_type, actor_type, actor_id, created_at, updated_at)
       values ($1::text::uuid, array['users', $1::text], md5($2::text), 'memory', jsonb_build_object('content', $2::text),
         $2::text, md5($2::text), $3::text, 1, '{}', 'api', 'user', $1::text, now(), now())`,
      [userId, text, status],
    );
  }
  return userId;
}

async function expectUpgraded(database: Database, userId: string) {
  const vectors = await database.unbound.rows<{ text: string; fts: string }>(
    sql`select text, fts::text as fts from memories where user_id = ${userId}::uuid order by text`,
  );
  expect(vectors.map((row) => row.fts.includes("'now'"))).toEqual([true, false, true]);
  expect(vectors.map((row) => row.fts.includes("'not'"))).toEqual([false, true, true]);
  await expectStatisticsRecomputed(database);
  const [now] = await database.unbound.rows<{ docs: number }>(
    sql`select docs from memory_lexemes where user_id = ${userId}::uuid and lexeme = 'now'`,
  );
  // Only the active memory counts: the deleted one holds "now" too.
  expect(now?.docs).toBe(1);
}

describe("upgrading to full-text vectors that keep negations and 'now'", () => {
  it("rewrites every memory's vector and recounts the statistics [pglite]", async () => {
    const [{ drizzle }, { migrate }] = await Promise.all([
      import("drizzle-orm/pglite"),
      import("drizzle-orm/pglite/migrator"),
    ]);
    const dataDir = path.join(scratch, "pglite");
    const client = await createPglite(dataDir);
    await migrate(drizzle({ client }), { migrationsFolder: migrationsBefore() });
    const userId = await seed(async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows);
    await client.close();
    const database = await openPglite(dataDir);
    try {
      await expectUpgraded(database, userId);
    } finally {
      await database.close();
    }
  });

  const postgresUrl = process.env.TEST_DATABASE_URL;
  it.skipIf(!postgresUrl)("rewrites every memory's vector and recounts the statistics [postgres]", async () => {
    const name = `ml_upgrade_${process.pid}_${Date.now()}`;
    const admin = postgres(postgresUrl as string, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(postgresUrl as string);
    url.pathname = `/${name}`;
    try {
      await upgradePostgres(url.toString(), false);
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  const citusUrl = process.env.TEST_CITUS_URL;
  it.skipIf(!citusUrl)(
    "rewrites the distributed vectors and recounts the statistics on every shard [citus]",
    async () => {
      const { url, drop } = await createCitusDatabase(citusUrl as string);
      try {
        await upgradePostgres(url, true);
      } finally {
        await drop();
      }
    },
  );
});

/** Migrates `url` to LAST_BEFORE (distributing it on Citus, as the app did then), seeds it, then opens it. */
async function upgradePostgres(url: string, citus: boolean) {
  const [{ drizzle }, { migrate }] = await Promise.all([
    import("drizzle-orm/postgres-js"),
    import("drizzle-orm/postgres-js/migrator"),
  ]);
  const client = postgres(url, { max: 1, onnotice: () => {} });
  let userId: string;
  try {
    if (citus) await prepareCitusMigration(client);
    await migrate(drizzle({ client }), { migrationsFolder: migrationsBefore() });
    if (citus) await distribute(client);
    userId = await seed((text, params) => client.unsafe(text, params as never[]));
  } finally {
    await client.end();
  }
  const database = await openPostgres(url, { max: 2 });
  try {
    expect(database.kind).toBe(citus ? "citus" : "postgres");
    await expectUpgraded(database, userId);
  } finally {
    await database.close();
  }
}

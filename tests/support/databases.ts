import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { type Database, openPglite, openPostgres } from "@/lib/db/client";
import { copyMigratedCitusDatabase } from "./citus";
import { closeFingerprintReaders } from "./fingerprints";
import { copyMigratedTemplate, databaseUrl, migrationsHash } from "./templates";

export interface TestBackend {
  name: "pglite" | "postgres" | "citus";
  open(): Promise<Database>;
}

/**
 * In-memory PGlite always; a fresh database on TEST_DATABASE_URL when it is set, and on the Citus cluster whose
 * coordinator TEST_CITUS_URL names (see citusRunsHere).
 */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ name: "pglite", open: openMigratedPglite }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) backends.push({ name: "postgres", open: () => openFreshPostgres(url) });
  const citus = process.env.TEST_CITUS_URL;
  if (citus && citusRunsHere()) backends.push({ name: "citus", open: () => openFreshCitus(citus) });
  return backends;
}

/**
 * Whether this test file runs on Citus too: every file, unless TEST_CITUS_SUITES lists the paths (space-separated,
 * relative to the project, prefixes) to run there — CI keeps to the integration suites to stay within its time.
 */
function citusRunsHere(): boolean {
  const suites = process.env.TEST_CITUS_SUITES?.split(/\s+/).filter(Boolean);
  if (!suites?.length) return true;
  const file = path.relative(process.cwd(), expect.getState().testPath ?? "");
  return suites.some((suite) => file.startsWith(suite));
}

/**
 * An in-memory PGlite loaded from a dump of a migrated one: migrating takes seconds per suite, loading a fraction of
 * one. The dump is made once per set of migrations (named by their hash, so a changed migration makes a new one) and
 * shared by every worker of the run through a file; a worker that finds none makes it (two at once write the same
 * bytes, and the rename makes either whole). Migrations still run on the loaded copy, finding nothing to do.
 */
/** The dump as this worker read it once: a Blob is never changed by reading it, and each suite loads it again. */
let dump: Promise<Blob> | undefined;

export async function openMigratedPglite(dataDir?: string): Promise<Database> {
  dump ??= migratedPgliteDump().then((file) => new Blob([readFileSync(file)]));
  // A new directory given here is filled from the dump too: 2.4 CPU-seconds instead of 6.4 to create and migrate it.
  return openPglite(dataDir, { loadDataDir: await dump });
}

async function migratedPgliteDump(): Promise<string> {
  const file = path.join(tmpdir(), `memory-ledger-pglite-${migrationsHash()}-without-templates.tar`);
  if (existsSync(file)) return file;
  const database = await openPglite();
  if (database.connection.kind !== "pglite") throw new Error("expected PGlite");
  // A suite never creates a database in PGlite, and the two template databases were 15 of the dump's 43 MB and half
  // its files, each written into every copy: without them a copy opens in about 320 ms of CPU instead of 510.
  for (const statement of [
    "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
    "drop database template0",
    "drop database template1",
    "checkpoint",
  ])
    await database.connection.client.exec(statement);
  const dump = await database.connection.client.dumpDataDir("none");
  await database.close();
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return file;
}

/**
 * A new, migrated and distributed database on the Citus cluster at `coordinatorUrl`, copied from a template migrated
 * once (./citus.ts), dropped again on close.
 */
export async function openFreshCitus(coordinatorUrl: string): Promise<Database> {
  const { url, drop } = await copyMigratedCitusDatabase(coordinatorUrl);
  const database = await openPostgres(url, { max: 4 });
  const fresh: Database = {
    ...database,
    async close() {
      await closeFingerprintReaders(fresh);
      await database.close();
      await drop();
    },
  };
  return fresh;
}

/**
 * A new, migrated database on the PostgreSQL server at `adminUrl`, dropped again on close: a copy of a template
 * migrated once per set of migrations (./templates.ts) rather than a database migrated for each suite.
 */
export async function openFreshPostgres(adminUrl: string): Promise<Database> {
  const name = `ml_test_${randomBytes(6).toString("hex")}`;
  await copyMigratedTemplate(
    [adminUrl],
    async (template) => {
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`create database ${template}`);
      } finally {
        await admin.end();
      }
      const database = await openPostgres(databaseUrl(adminUrl, template), { max: 1 });
      await database.close();
    },
    name,
  );
  const database = await openPostgres(databaseUrl(adminUrl, name), { max: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * Runs a suite once per backend against one database opened for the suite. `use()` returns it inside tests.
 */
export function describeEachDatabase(title: string, body: (use: () => Database, backend: TestBackend["name"]) => void) {
  for (const backend of testBackends()) {
    describe(`${title} [${backend.name}]`, () => {
      let database: Database | undefined;
      beforeAll(async () => {
        database = await backend.open();
      });
      afterAll(async () => {
        await database?.close();
      });
      body(() => {
        if (!database) throw new Error("test database is not open yet");
        return database;
      }, backend.name);
    });
  }
}

/** Jobs of `queue` for one user that are still waiting, retrying or running (pg-boss keeps its jobs in `pgboss.job`). */
export async function unfinishedJobs(database: Database, queue: string, userId: string): Promise<number> {
  const [row] = await database.unbound.rows<{ count: number }>(sql`
    select count(*)::int as count from pgboss.job
    where name = ${queue} and data->>'userId' = ${userId} and state in ('created', 'retry', 'active')`);
  return row?.count ?? 0;
}

import { randomBytes } from "node:crypto";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { type Database, openPglite, openPostgres } from "@/lib/db/client";
import { createCitusDatabase } from "./citus";

export interface TestBackend {
  name: "pglite" | "postgres" | "citus";
  open(): Promise<Database>;
}

/**
 * In-memory PGlite always; a fresh database on TEST_DATABASE_URL when it is set, and on the Citus cluster whose
 * coordinator TEST_CITUS_URL names (see citusRunsHere).
 */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ name: "pglite", open: () => openPglite() }];
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
 * A new, migrated and distributed database on the Citus cluster at `coordinatorUrl`, dropped again on close. Citus
 * does not create databases across nodes, so it is created on every node with the extension, and the new database's
 * coordinator registers the same workers.
 */
export async function openFreshCitus(coordinatorUrl: string): Promise<Database> {
  const { url, drop } = await createCitusDatabase(coordinatorUrl);
  const database = await openPostgres(url, { max: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      await drop();
    },
  };
}

/** A new, migrated database on the PostgreSQL server at `adminUrl`, dropped again on close. */
export async function openFreshPostgres(adminUrl: string): Promise<Database> {
  const name = `ml_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), { max: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
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

import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe } from "vitest";
import { type Database, openPglite, openPostgres } from "@/lib/db/client";

export interface TestBackend {
  name: "pglite" | "postgres";
  open(): Promise<Database>;
}

/** In-memory PGlite always; a fresh database on TEST_DATABASE_URL too when it is set. */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ name: "pglite", open: () => openPglite() }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) backends.push({ name: "postgres", open: () => openFreshPostgres(url) });
  return backends;
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

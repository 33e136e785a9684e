import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { openPostgres } from "@/lib/db/client";

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)("starting on PostgreSQL without row-level security", () => {
  it("refuses to open the database, saying why, when the login may neither create nor assume the role", async () => {
    const suffix = randomBytes(5).toString("hex");
    const login = `ml_no_roles_${suffix}`;
    const name = `ml_test_norole_${suffix}`;
    const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} });
    try {
      // A login that owns its database (so it can migrate it) but has no CREATEROLE and is no member of the role.
      await admin.unsafe(`create role ${login} login nocreaterole nosuperuser`);
      await admin.unsafe(`create database ${name} owner ${login}`);
      const url = new URL(adminUrl!);
      url.username = login;
      url.password = "";
      url.pathname = `/${name}`;
      const [{ exists } = { exists: false }] = await admin<{ exists: boolean }[]>`
        select exists (select 1 from pg_roles where rolname = 'memory_ledger_app') as exists`;
      const expected = exists
        ? `the login ${login} may not switch to the role memory_ledger_app`
        : `the role memory_ledger_app does not exist, and ${login} may not create roles`;
      await expect(openPostgres(url.toString(), { max: 1 })).rejects.toThrow(
        `Row-level security cannot be enforced: ${expected}.`,
      );
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.unsafe(`drop role if exists ${login}`);
      await admin.end();
    }
  });
});

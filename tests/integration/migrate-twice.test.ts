import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openPglite } from "@/lib/db/client";

const dir = mkdtempSync(path.join(tmpdir(), "ml-pglite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("re-opening a PGlite directory applies migrations idempotently and keeps data", async () => {
  const first = await openPglite(path.join(dir, "db"));
  await first.unbound.rows(sql`insert into users (email, name) values ('keep@example.com', 'Keep')`);
  const applied = await first.unbound.rows<{ count: number }>(
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  await first.close();

  const second = await openPglite(path.join(dir, "db"));
  const again = await second.unbound.rows<{ count: number }>(
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  const users = await second.unbound.rows<{ email: string }>(sql`select email from users`);
  await second.close();

  expect(again[0]?.count).toBe(applied[0]?.count);
  expect(users.map((u) => u.email)).toEqual(["keep@example.com"]);
});

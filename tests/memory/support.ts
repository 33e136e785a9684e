import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import type { MemoryContext } from "@/lib/memory";

/** A user row (memories reference users) and its id. */
export async function createUser(database: Database): Promise<string> {
  const [row] = await database.rows<{ id: string }>(sql`insert into users (name) values ('test') returning id`);
  return (row as { id: string }).id;
}

/** A ticking clock: every call is one second after the previous, so keyset order is deterministic. */
export function steppingClock(start = Date.parse("2026-01-01T00:00:00.000Z")): () => Date {
  let tick = 0;
  return () => new Date(start + 1_000 * tick++);
}

export function contextFor(database: Database, userId: string, overrides: Partial<MemoryContext> = {}): MemoryContext {
  return {
    database,
    principal: { userId, root: ["users", userId] },
    actor: { type: "user", id: userId },
    clock: steppingClock(),
    ...overrides,
  };
}

/** Every row of every table in the public schema, as text: for proving a purged fact is gone. */
export async function dumpAllRows(database: Database): Promise<string> {
  const tables = await database.rows<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const dumps: string[] = [];
  for (const { name } of tables) {
    const rows = await database.rows<{ row: string }>(sql`select t::text as row from ${sql.identifier(name)} t`);
    dumps.push(...rows.map((r) => `${name}: ${r.row}`));
  }
  return dumps.join("\n");
}

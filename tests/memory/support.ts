import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import type { UserBinding } from "@/lib/db/unit-of-work";
import { embedMissing, type MemoryContext } from "@/lib/memory";

/** A user row (memories reference users) and its id. */
export async function createUser(database: Database): Promise<string> {
  const [row] = await database.unbound.rows<{ id: string }>(sql`insert into users (name) values ('test') returning id`);
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

/** Every row of every table in these schemas, as text: for proving a purged fact is gone. */
/**
 * Tables that count requests rather than hold anyone's data: every authenticated request writes them, so the dumps
 * that show what a request changed leave them out (their keys are hashed, so they hold no text either).
 */
export const REQUEST_ACCOUNTING_TABLES: readonly string[] = ["rate_limit_windows"];

export async function dumpAllRows(database: Database, schemas: readonly string[] = ["public"]): Promise<string> {
  const dumps: string[] = [];
  for (const schema of schemas) {
    const tables = await database.unbound.rows<{ name: string }>(
      sql`select table_name as name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE'`,
    );
    for (const { name } of tables) {
      if (schema === "public" && REQUEST_ACCOUNTING_TABLES.includes(name)) continue;
      const rows = await database.unbound.rows<{ row: string }>(
        sql`select t::text as row from ${sql.identifier(schema)}.${sql.identifier(name)} t`,
      );
      dumps.push(...rows.map((r) => `${schema}.${name}: ${r.row}`));
    }
  }
  return dumps.join("\n");
}

/** Work bound to `userId` (chat store, console reads, API keys): what a surface hands those functions. */
export function bindingFor(database: Database, userId: string): UserBinding {
  return { database, principal: { userId } };
}

/**
 * A context with an embedding model whose writes get their vectors as soon as they commit, the way the app's
 * embedding job computes them (embedMissing until nothing is missing), but in the test's own process and time.
 */
export function withEmbedding(ctx: MemoryContext, embeddingModel: EmbeddingModelV4): MemoryContext {
  const embedding = { ...ctx, embeddingModel };
  return {
    ...embedding,
    scheduleEmbedding: async () => {
      while ((await embedMissing(embedding)) > 0) {
        // Until every memory of the user has its vector.
      }
    },
  };
}

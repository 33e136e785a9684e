import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { MockEmbeddingModelV4 } from "ai/test";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Database } from "@/lib/db/client";
import type { UserBinding } from "@/lib/db/unit-of-work";
import type { MemoryContext } from "@/lib/memory/core";
import { embedMissing } from "@/lib/memory/search";
import { fingerprintsOf } from "../support/fingerprints";

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

/**
 * Tables that count requests rather than hold anyone's data: every authenticated request writes them, so the dumps
 * that show what a request changed leave them out (their keys are hashed, so they hold no text either).
 */
export const REQUEST_ACCOUNTING_TABLES: readonly string[] = ["rate_limit_windows"];

/** The base tables of a schema other than public (pg-boss creates its own when the queue starts, so never cached). */
async function tablesOf(database: Database, schema: string): Promise<string[]> {
  if (schema === "public") return publicTables(database);
  const rows = await database.unbound.rows<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE'`,
  );
  return rows.map((row) => row.name);
}

/** Every row of every table in these schemas, as text: for proving a purged fact is gone. */
export async function dumpAllRows(database: Database, schemas: readonly string[] = ["public"]): Promise<string> {
  const dumps: string[] = [];
  for (const schema of schemas) {
    for (const name of await tablesOf(database, schema)) {
      const rows = await database.unbound.rows<{ row: string }>(
        sql`select t::text as row from ${sql.identifier(schema)}.${sql.identifier(name)} t`,
      );
      dumps.push(...rows.map((r) => `${schema}.${name}: ${r.row}`));
    }
  }
  return dumps.join("\n");
}

/** The public tables a dump covers (request accounting left out), read once per database: migrations ran before. */
const dumpedTables = new WeakMap<Database, Promise<string[]>>();

export function publicTables(database: Database): Promise<string[]> {
  let tables = dumpedTables.get(database);
  if (!tables) {
    tables = database.unbound
      .rows<{ name: string }>(
        sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
      )
      .then((rows) => rows.map((row) => row.name).filter((name) => !REQUEST_ACCOUNTING_TABLES.includes(name)));
    dumpedTables.set(database, tables);
  }
  return tables;
}

/** Per public table, its row count and hash sum (../support/fingerprints.ts). */
export async function tableFingerprints(database: Database): Promise<Map<string, string>> {
  return fingerprintsOf(database, await publicTables(database));
}

/** Work bound to `userId` (chat store, console reads, API keys): what a surface hands those functions. */
export function bindingFor(database: Database, userId: string): UserBinding {
  return { database, principal: { userId } };
}

/** A toy embedding: one dimension per topic, so "kitten" lands next to "cat" without sharing a word. */
const TOPICS = [/cat|kitten|feline/i, /car|vehicle|drive/i, /coffee|espresso/i];
export function topicEmbeddingModel() {
  return new MockEmbeddingModelV4({
    provider: "toy",
    modelId: "topics",
    maxEmbeddingsPerCall: 16,
    doEmbed: async ({ values }) => ({
      embeddings: values.map((value) => [...TOPICS.map((topic) => (topic.test(value) ? 1 : 0)), 0.01]),
      warnings: [],
    }),
  });
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

/**
 * The per-user tables the triggers on `memories` keep (vocabulary, document frequencies, corpus size), next to the
 * same figures counted from scratch over the memories as they are now. A corpus row left at zero is no row.
 */
export async function expectStatisticsRecomputed(database: Database) {
  const rows = (query: ReturnType<typeof sql>) => database.unbound.rows<Record<string, unknown>>(query);
  const kept = {
    terms: await rows(sql`select user_id::text as user, term, docs from memory_terms order by 1, 2`),
    lexemes: await rows(sql`select user_id::text as user, lexeme, docs from memory_lexemes order by 1, 2`),
    corpus: await rows(sql`
      select user_id::text as user, docs, lexemes::int as lexemes from memory_corpus
      where docs <> 0 or lexemes <> 0 order by 1`),
  };
  const recounted = {
    terms: await rows(sql`
      select m.user_id::text as user, w.word as term, count(*)::int as docs
      from memories m cross join lateral memory_terms_of(m.text) as w(word)
      where m.purged_at is null group by 1, 2 order by 1, 2`),
    lexemes: await rows(sql`
      select m.user_id::text as user, l as lexeme, count(*)::int as docs
      from memories m cross join lateral unnest(tsvector_to_array(m.fts)) as l
      where m.status = 'active' group by 1, 2 order by 1, 2`),
    corpus: await rows(sql`
      select user_id::text as user, count(*)::int as docs, sum(length(fts))::int as lexemes
      from memories where status = 'active' group by 1 order by 1`),
  };
  expect(kept).toEqual(recounted);
}

import { type SQL, sql } from "drizzle-orm";
import type { Database, Db } from "@/lib/db/client";
import { createMemories, createMemory, type MemoryContext, searchMemories, systemClock } from "@/lib/memory";
import type { GeneratedMemory } from "../data/generator";
import { type BenchStore, chunks, LOAD_CHUNK } from "./store";

export interface LedgerStore extends BenchStore {
  /** The memory context of a benchmark user (its users row is created on first use). */
  contextOf(user: string): Promise<MemoryContext>;
  database: Database;
}

const inputOf = (memory: GeneratedMemory) => ({ kind: memory.kind, content: memory.content, key: memory.key });

/**
 * Memory Ledger through its public core (`createMemories`, `searchMemories`), exactly as the app calls it. The
 * database handle records the last raw statement it ran, inside transactions too, so a search can be EXPLAINed as
 * it was really issued.
 */
export function ledgerStore(name: string, opened: Database): LedgerStore {
  let lastStatement: SQL | undefined;
  const recording = <T extends { execute: (query: SQL) => unknown }>(handle: T): T =>
    new Proxy(handle, {
      get(target, property, receiver) {
        if (property === "execute") {
          return (query: SQL) => {
            lastStatement = query;
            return target.execute(query);
          };
        }
        if (property === "transaction") {
          return (work: (tx: T) => unknown, config?: unknown) =>
            (target as unknown as Db).transaction(
              (tx) => work(recording(tx as unknown as T)) as never,
              config as never,
            );
        }
        return Reflect.get(target, property, receiver);
      },
    });
  const database: Database = {
    ...opened,
    db: recording(opened.db),
    rows: (query) => {
      lastStatement = query;
      return opened.rows(query);
    },
  };
  const contexts = new Map<string, Promise<MemoryContext>>();
  const contextOf = (user: string) => {
    let context = contexts.get(user);
    if (!context) {
      context = createContext(database, user);
      contexts.set(user, context);
    }
    return context;
  };
  return {
    name,
    detail: `${opened.kind === "pglite" ? "PGlite (embedded)" : "PostgreSQL"}, full-text OR + trigram, RRF`,
    database,
    contextOf,
    async load(user) {
      const ctx = await contextOf(user.name);
      for (const part of chunks(user.memories, LOAD_CHUNK)) await createMemories(ctx, part.map(inputOf));
    },
    async search(user, query, limit) {
      const results = await searchMemories(await contextOf(user), { query, limit });
      return results.map((result) => result.memory.key);
    },
    async insertOne(user, memory) {
      await createMemory(await contextOf(user), inputOf(memory));
    },
    async insertBatch(user, memories) {
      await createMemories(await contextOf(user), memories.map(inputOf));
    },
    async explain(user, query) {
      await searchMemories(await contextOf(user), { query, limit: 10 });
      if (!lastStatement) throw new Error("the search issued no statement");
      const plan = await opened.rows<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers) ${lastStatement}`);
      return plan.map((row) => row["QUERY PLAN"]).join("\n");
    },
    close: () => opened.close(),
  };
}

async function createContext(database: Database, user: string): Promise<MemoryContext> {
  const [row] = await database.rows<{ id: string }>(
    sql`insert into users (name) values (${`bench user ${user}`}) returning id`,
  );
  const userId = (row as { id: string }).id;
  return {
    database,
    principal: { userId, root: ["users", userId] },
    actor: { type: "api", id: "bench" },
    clock: systemClock,
  };
}

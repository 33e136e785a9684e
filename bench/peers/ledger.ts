import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database, Db } from "@/lib/db/client";
import { asUser } from "@/lib/db/unit-of-work";
import { LIMITS, SEARCH_MODES, type SearchMode } from "@/lib/memory/contract";
import { type MemoryContext, systemClock } from "@/lib/memory/core";
import { embedMissing, searchMemories } from "@/lib/memory/search";
import { createMemories, createMemory } from "@/lib/memory/store";
import type { GeneratedMemory } from "../data/generator";
import { asQuery, type EmbeddingMeter } from "../embedding";
import { type BenchStore, chunks, LOAD_CHUNK } from "./store";

export { SEARCH_MODES, type SearchMode };

export interface LedgerOptions {
  /** Asked of every search; absent, the core's default (hybrid where it has vectors, else lexical). */
  mode?: SearchMode;
  /**
   * Put in every context, with writes embedded right after they commit (as the app's embedding job would, in this
   * process): the core then adds its vector leg (where the database has pgvector).
   */
  embedding?: { model: EmbeddingModelV4; meter: EmbeddingMeter };
}

export interface LedgerStore extends BenchStore {
  /** The memory context of a benchmark user (its users row is created on first use). */
  contextOf(user: string): Promise<MemoryContext>;
  database: Database;
  /** The same database and users, searched with `mode`: a view for the recall suite, loading nothing itself. */
  withMode(mode: SearchMode): LedgerStore;
}

const inputOf = (memory: GeneratedMemory) => ({ kind: memory.kind, content: memory.content, key: memory.key });

/**
 * Memory Ledger through its public core (`createMemories`, `searchMemories`), exactly as the app calls it. While
 * `explain` runs a search, the database handle records the statements it sends, raw or built, inside transactions
 * too, so the search's last one can be EXPLAINed as it was really issued.
 */
export function ledgerStore(name: string, opened: Database, options: LedgerOptions = {}): LedgerStore {
  const dialect = new PgDialect();
  // Statements are kept only while explain() runs its search, so the timed searches pay nothing for it.
  let recorded: SQL[] | undefined;
  const record = (query: SQL) => {
    recorded?.push(query);
  };
  // A query builder (a search's select) records its statement when it is awaited, as it is sent.
  const recordingBuilder = (builder: object): object =>
    new Proxy(builder, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (property === "then") {
          record((target as { getSQL(): SQL }).getSQL());
          return value.bind(target);
        }
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          return typeof result === "object" && result !== null && !(result instanceof Promise)
            ? recordingBuilder(result)
            : result;
        };
      },
    });
  const recording = <T extends { execute: (query: SQL) => unknown }>(handle: T): T =>
    new Proxy(handle, {
      get(target, property, receiver) {
        if (property === "execute") {
          return (query: SQL) => {
            record(query);
            return target.execute(query);
          };
        }
        if (property === "select" && recorded) {
          const select = Reflect.get(target, property, receiver) as (...args: unknown[]) => object;
          return (...args: unknown[]) => recordingBuilder(select.apply(target, args));
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
    unbound: {
      db: recording(opened.unbound.db),
      rows: (query) => {
        record(query);
        return opened.unbound.rows(query);
      },
    },
  };
  const contexts = new Map<string, Promise<MemoryContext>>();
  const contextOf = (user: string) => {
    let context = contexts.get(user);
    if (!context) {
      context = createContext(database, user, options.embedding?.model);
      contexts.set(user, context);
    }
    return context;
  };
  const vectors = options.embedding !== undefined && opened.vector;
  const build = (mode: SearchMode | undefined, owner: boolean): LedgerStore => ({
    name: mode ? `${name} [${mode}]` : name,
    detail:
      `${opened.kind === "pglite" ? "PGlite (embedded)" : "PostgreSQL"}, BM25 over the user's memories` +
      (vectors ? ` + ${options.embedding?.meter.model} vectors, fused by score` : ""),
    // Without a mode the core decides: lexical alone, or both legs fused when it has vectors.
    ranking: mode ?? (vectors ? "hybrid (core default)" : "lexical (core default)"),
    ...(options.embedding ? { embedding: options.embedding.meter } : {}),
    database,
    contextOf,
    withMode: (other) => build(other, false),
    async load(user) {
      if (!owner) return;
      const ctx = await contextOf(user.name);
      for (const part of chunks(user.memories, LOAD_CHUNK)) await createMemories(ctx, part.map(inputOf));
    },
    async search(user, query, limit) {
      const ctx = await contextOf(user);
      const results = await asQuery(options.embedding?.meter, () =>
        searchMemories(ctx, { query, limit, ...(mode ? { mode } : {}) }),
      );
      return results.map((result) => result.memory.key);
    },
    async searchWithConfidence(user, query, limit) {
      const ctx = await contextOf(user);
      const results = await asQuery(options.embedding?.meter, () =>
        searchMemories(ctx, { query, limit, ...(mode ? { mode } : {}) }),
      );
      return {
        hits: results.map((result) => ({ key: result.memory.key ?? "", confidence: result.confidence })),
        floor: LIMITS.confidenceFloor,
      };
    },
    async insertOne(user, memory) {
      await createMemory(await contextOf(user), inputOf(memory));
    },
    async insertBatch(user, memories) {
      await createMemories(await contextOf(user), memories.map(inputOf));
    },
    async explain(user, query) {
      const statements: SQL[] = [];
      recorded = statements;
      try {
        await searchMemories(await contextOf(user), { query, limit: 10, ...(mode ? { mode } : {}) });
      } finally {
        recorded = undefined;
      }
      // The binding (SET LOCAL) plans nothing: what is explained is the last statement after it.
      const last = statements.findLast((statement) => !/^\s*set local/i.test(dialect.sqlToQuery(statement).sql));
      if (!last) return "(the search sent no statement)";
      // As the user: the statement reads their rows through the binding the unit of work sets.
      const plan = await asUser(await contextOf(user), (unit) =>
        unit.rows<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers) ${last}`),
      );
      return plan.map((row) => row["QUERY PLAN"]).join("\n");
    },
    ...(vectors && (mode === undefined || mode === "hybrid")
      ? {
          searchWithWeight: async (user: string, query: string, limit: number, weight: number) => {
            const ctx = await contextOf(user);
            const results = await asQuery(options.embedding?.meter, () =>
              searchMemories(ctx, { query, limit, mode: "hybrid", vectorWeight: weight }),
            );
            return results.map((result) => result.memory.key);
          },
        }
      : {}),
    close: async () => {
      if (owner) await opened.close();
    },
  });
  return build(options.mode, true);
}

async function createContext(
  database: Database,
  user: string,
  embeddingModel: EmbeddingModelV4 | undefined,
): Promise<MemoryContext> {
  const [row] = await database.unbound.rows<{ id: string }>(
    sql`insert into users (name) values (${`bench user ${user}`}) returning id`,
  );
  const userId = (row as { id: string }).id;
  const ctx: MemoryContext = {
    database,
    principal: { userId, root: ["users", userId] },
    actor: { type: "api", id: "bench" },
    clock: systemClock,
  };
  if (!embeddingModel) return ctx;
  const embedding = { ...ctx, embeddingModel };
  return {
    ...embedding,
    scheduleEmbedding: async () => {
      while ((await embedMissing(embedding)) > 0) {
        // until every memory of the user has its vector
      }
    },
  };
}

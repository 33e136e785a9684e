import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { type BaseStore, InMemoryStore, type PutOperation } from "@langchain/langgraph-checkpoint";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import type { GeneratedMemory } from "../data/generator";
import { asQuery, dimensionsOf, type EmbeddingMeter, ModelEmbeddings } from "../embedding";
import { type BenchStore, chunks, LOAD_CHUNK, langGraphValue } from "./store";

/** LangGraph's convention for per-user memory: one namespace per user under `users`. */
const namespaceOf = (user: string) => ["users", user];

const putOf = (user: string, memory: GeneratedMemory): PutOperation => ({
  namespace: namespaceOf(user),
  key: memory.key,
  value: langGraphValue(memory),
});

function adapter(
  name: string,
  detail: string,
  store: BaseStore,
  close: () => Promise<void>,
  extra: Partial<BenchStore> = {},
): BenchStore {
  return {
    ...extra,
    name,
    detail,
    async load(user) {
      for (const part of chunks(user.memories, LOAD_CHUNK)) await store.batch(part.map((m) => putOf(user.name, m)));
    },
    async search(user, query, limit) {
      const items = await asQuery(extra.embedding, () => store.search(namespaceOf(user), { query, limit }));
      return items.map((item) => item.key);
    },
    async insertOne(user, memory) {
      await store.put(namespaceOf(user), memory.key, langGraphValue(memory));
    },
    async insertBatch(user, memories) {
      await store.batch(memories.map((memory) => putOf(user, memory)));
    },
    close,
  };
}

/** The store LangGraph.js gives you by default: no index, so a query is ignored and items come back in insert order. */
export function inMemoryStore(): BenchStore {
  return adapter(
    "LangGraph InMemoryStore",
    "in-process, no index (query ignored)",
    new InMemoryStore(),
    async () => {},
    { ranking: "none (insert order)" },
  );
}

/**
 * InMemoryStore with an embedding index: a brute-force cosine scan in JavaScript. The model is any AI SDK embedding
 * model (the bench's hashed vectors by default), metered so the report shows what embedding cost.
 */
export async function inMemoryVectorStore(embedding: {
  model: EmbeddingModelV4;
  meter: EmbeddingMeter;
}): Promise<BenchStore> {
  const dims = await dimensionsOf(embedding.model);
  embedding.meter.totals.load = { calls: 0, values: 0, ms: 0 };
  const store = new InMemoryStore({ index: { dims, embeddings: new ModelEmbeddings(embedding.model) } });
  return adapter(
    "LangGraph InMemoryStore+vec",
    `in-process, ${dims}-d ${embedding.meter.model} vectors`,
    store,
    async () => {},
    { ranking: "vector", embedding: embedding.meter },
  );
}

/** PostgresStore without an index config: its text search (plainto_tsquery AND + ILIKE) over a LIKE namespace prefix. */
export async function postgresStore(url: string): Promise<BenchStore> {
  const store = PostgresStore.fromConnString(url, { schema: "langgraph" });
  await store.setup();
  return adapter("LangGraph PostgresStore", "PostgreSQL, text search (no pgvector)", store, () => store.stop(), {
    ranking: "full-text AND + ILIKE",
  });
}

import { type BaseStore, InMemoryStore, type PutOperation } from "@langchain/langgraph-checkpoint";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import type { GeneratedMemory } from "../data/generator";
import { HashedEmbeddings, VECTOR_DIMS } from "../data/hashed-vectors";
import { type BenchStore, chunks, LOAD_CHUNK, langGraphValue } from "./store";

/** LangGraph's convention for per-user memory: one namespace per user under `users`. */
const namespaceOf = (user: string) => ["users", user];

const putOf = (user: string, memory: GeneratedMemory): PutOperation => ({
  namespace: namespaceOf(user),
  key: memory.key,
  value: langGraphValue(memory),
});

function adapter(name: string, detail: string, store: BaseStore, close: () => Promise<void>): BenchStore {
  return {
    name,
    detail,
    async load(user) {
      for (const part of chunks(user.memories, LOAD_CHUNK)) await store.batch(part.map((m) => putOf(user.name, m)));
    },
    async search(user, query, limit) {
      const items = await store.search(namespaceOf(user), { query, limit });
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
  );
}

/** InMemoryStore with an embedding index (the bench's hashed vectors): a brute-force cosine scan in JavaScript. */
export function inMemoryVectorStore(): BenchStore {
  const store = new InMemoryStore({ index: { dims: VECTOR_DIMS, embeddings: new HashedEmbeddings() } });
  return adapter("LangGraph InMemoryStore+vec", `in-process, ${VECTOR_DIMS}-d hashed vectors`, store, async () => {});
}

/** PostgresStore without an index config: its text search (plainto_tsquery AND + ILIKE) over a LIKE namespace prefix. */
export async function postgresStore(url: string): Promise<BenchStore> {
  const store = PostgresStore.fromConnString(url, { schema: "langgraph" });
  await store.setup();
  return adapter("LangGraph PostgresStore", "PostgreSQL, text search (no pgvector)", store, () => store.stop());
}

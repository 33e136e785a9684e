// Compiled by tests/sdk/sdk-package.test.ts inside the temporary app, with Node's own module resolution, against the
// installed package's declarations: the calls are typed from the server's schemas.

import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { createMemoryClient, type Memory, MemoryLedgerError, type SearchResult } from "@memory-ledger/sdk";
import { type MemoryHit, memoryTools } from "@memory-ledger/sdk/ai";
import { MemoryLedgerStore } from "@memory-ledger/sdk/langgraph";

const client = createMemoryClient({ baseUrl: "http://localhost:3000", apiKey: "ml_x" });

export async function typed(): Promise<void> {
  const memory: Memory = await client.memories.create({
    content: "x",
    kind: "memory",
    namespace: ["a"],
    metadata: { n: 1 },
  });
  const version: number = memory.version;
  const status: "active" | "deleted" | "merged" = memory.status;
  const results: SearchResult[] = await client.memories.search({
    query: "x",
    filter: { n: { $gte: 1 } },
    mode: "lexical",
  });
  await client.memories.list({ status: "all", limit: 10 });
  // @ts-expect-error: the request schemas are strict, an unknown field is refused
  await client.memories.create({ content: "x", colour: "red" });
  // @ts-expect-error: a namespace is a list of segments
  await client.memories.create({ content: "x", namespace: "a.b" });
  // @ts-expect-error: status is one of active, deleted, all
  await client.memories.list({ status: "gone" });
  // @ts-expect-error: mode is one of hybrid, lexical, vector
  await client.memories.search({ query: "x", mode: "fuzzy" });
  const error = new MemoryLedgerError("not_found", 404, "gone");
  // @ts-expect-error: codes are the server's
  const code: "teapot" = error.code;
  const store: BaseStore = new MemoryLedgerStore(client);
  const tools = memoryTools(client, { namespace: ["agents"] });
  const hit: MemoryHit = { id: "m", text: "x", kind: "memory", namespace: [], updatedAt: "2026-01-01", score: 1 };
  // @ts-expect-error: a model reads a memory's words as `text`
  const stale: MemoryHit = { id: "m", content: "x", kind: "memory", namespace: [], updatedAt: "", score: 1 };
  void [version, status, results, code, store, tools.manage_memory, tools.search_memory, hit, stale];
}

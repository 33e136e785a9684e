// Another app using the installed @memory-ledger/sdk against a running Memory Ledger (MEMORY_LEDGER_URL and
// MEMORY_LEDGER_KEY). It prints one JSON report for tests/sdk/sdk-package.test.ts to check.

import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { createMemoryClient, MemoryLedgerError } from "@memory-ledger/sdk";
import { memoryTools } from "@memory-ledger/sdk/ai";
import { MemoryLedgerStore } from "@memory-ledger/sdk/langgraph";
import { generateText, isStepCount } from "ai";
import { MockLanguageModelV4 } from "ai/test";

const baseUrl = process.env.MEMORY_LEDGER_URL;
const apiKey = process.env.MEMORY_LEDGER_KEY;
const report = {};

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const toolCall = (toolName, input) => ({
  content: [{ type: "tool-call", toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const answer = (text) => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});

// 1. An AI SDK loop: the model saves a fact, looks it up, then answers from what the search returned.
{
  const client = createMemoryClient({ baseUrl, apiKey });
  const model = new MockLanguageModelV4({
    doGenerate: [
      toolCall("manage_memory", { action: "create", content: "The user's favourite tea is oolong" }),
      toolCall("search_memory", { query: "favourite tea" }),
      answer("Your favourite tea is oolong."),
    ],
  });
  const tools = memoryTools(client, { namespace: ["agents", "tea"] });
  const result = await generateText({
    model,
    tools,
    stopWhen: isStepCount(5),
    prompt: "Remember that my favourite tea is oolong, then tell me what it is.",
  });
  const offered = model.doGenerateCalls[0].tools;
  report.tools = offered.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
  report.steps = result.steps.map((step) =>
    step.toolResults.map((part) => ({ toolName: part.toolName, output: part.output })),
  );
  report.text = result.text;
  // What the search step sent back to the model.
  report.searchResultSeenByModel = JSON.stringify(model.doGenerateCalls[2].prompt).includes("oolong");
  // A dated update would supersede, which the HTTP API cannot do in one unit: the model is told, nothing changes.
  const saved = result.steps[0].toolResults[0].output;
  report.datedUpdate = await tools.manage_memory
    .execute(
      { action: "update", id: saved.id, content: "The user's favourite tea is sencha", validFrom: "2025-01-01" },
      { toolCallId: "call-dated", messages: [] },
    )
    .then(
      () => "applied",
      (error) => error.message,
    );
  report.afterDatedUpdate = (await client.memories.get(saved.id)).text;
}

// 2. The client: typed calls, errors with the server's code, status and message, and 429 retried after Retry-After.
{
  const client = createMemoryClient({ baseUrl, apiKey });
  const created = await client.memories.create({ content: "Allergic to peanuts", namespace: ["health"] });
  const updated = await client.memories.update(created.id, {
    content: "Allergic to peanuts and cashews",
    expectedVersion: 1,
  });
  const listed = await client.memories.list({ namespace: "health" });
  const hits = await client.memories.search({ query: "cashews" });
  const deleted = await client.memories.delete(created.id);
  const restored = await client.memories.restore(created.id);
  const history = await client.memories.history(created.id);
  const batch = await client.memories.batch([{ content: "Likes hiking" }, { content: 42, kind: "no-such-kind" }]);
  const all = [];
  for await (const memory of client.memories.listAll({ limit: 1 })) all.push(memory.text);
  report.client = {
    me: (await client.me()).role,
    created: { kind: created.kind, namespace: created.namespace, version: created.version },
    updated: updated.version,
    listed: listed.memories.map((memory) => memory.text),
    searched: hits[0]?.memory.id === created.id,
    deleted: deleted.status,
    restored: restored.status,
    history: history.map((version) => version.op),
    batch: { created: batch.created.length, rejected: batch.rejected.map((item) => item.index) },
    listAll: all.length,
  };

  const caught = async (promise) =>
    promise.then(
      () => null,
      (error) => ({
        isMemoryLedgerError: error instanceof MemoryLedgerError,
        code: error.code,
        status: error.status,
        message: error.message,
      }),
    );
  // Review and rules: a key reads them and adds rules; deciding and switching review off take the person's session.
  const rule = await client.rules.create({ text: "Never remember my salary", terms: ["salary"] });
  report.review = {
    rule: { text: rule.text, terms: rule.terms },
    rules: (await client.rules.list()).map((item) => item.id === rule.id),
    settings: await client.settings.get(),
    proposals: (await client.proposals.list({ status: "pending" })).proposals.length,
    refusedByRule: await caught(client.memories.create({ content: "My salary is 90k" })),
    keyMayNotSwitchReviewOff: await caught(client.settings.update({ review: "off" })),
  };
  report.errors = {
    notFound: await caught(client.memories.get("00000000-0000-4000-8000-000000000000")),
    conflict: await caught(client.memories.update(created.id, { content: "stale", expectedVersion: 1 })),
    invalid: await caught(client.memories.create({ content: "x", namespace: ["a.b"] })),
    badKey: await caught(createMemoryClient({ baseUrl, apiKey: "ml_wrong" }).me()),
    revokedKey: await caught(createMemoryClient({ baseUrl, apiKey: process.env.REVOKED_KEY }).me()),
  };

  // A proxy in front of the server that rate-limits the first two requests.
  let refused = 0;
  const limitedFetch = async (url, init) => {
    if (refused < 2) {
      refused++;
      return new Response(JSON.stringify({ error: { code: "rate_limited", message: "Slow down." } }), {
        status: 429,
        headers: { "content-type": "application/json", "retry-after": "0" },
      });
    }
    return fetch(url, init);
  };
  const patient = createMemoryClient({ baseUrl, apiKey, fetch: limitedFetch });
  report.retried = { role: (await patient.me()).role, refused };
  refused = 0;
  const impatient = createMemoryClient({ baseUrl, apiKey, fetch: limitedFetch, maxRetries: 1 });
  report.givesUp = await caught(impatient.me());
  const tooLong = createMemoryClient({
    baseUrl,
    apiKey,
    maxRetryDelayMs: 1_000,
    fetch: async () =>
      new Response(JSON.stringify({ error: { code: "rate_limited", message: "Wait a minute." } }), {
        status: 429,
        headers: { "retry-after": "60" },
      }),
  });
  const started = Date.now();
  report.longRetryAfter = { ...(await caught(tooLong.me())), waitedMs: Date.now() - started };
}

// 3. The LangGraph store: the BaseStore contract over the store API.
{
  const store = new MemoryLedgerStore(createMemoryClient({ baseUrl, apiKey }));
  await store.put(["prefs", "editor"], "theme", { content: "Dark theme in every editor" });
  await store.put(["prefs", "editor"], "font", { family: "Iosevka", size: 14 });
  await store.put(["projects"], "ledger", { name: "Memory Ledger", priority: 3 });
  const got = await store.get(["prefs", "editor"], "font");
  const missing = await store.get(["prefs", "editor"], "nothing");
  const queried = await store.search(["prefs"], { query: "which theme do I like in editors?" });
  const filtered = await store.search([], { filter: { priority: { $gte: 2 } } });
  const namespaces = await store.listNamespaces();
  const shallow = await store.listNamespaces({ prefix: ["prefs"], maxDepth: 1 });
  await store.delete(["projects"], "ledger");
  const afterDelete = await store.get(["projects"], "ledger");
  const batched = await store.batch([
    { namespace: ["notes"], key: "n1", value: { content: "Batch note" } },
    { namespace: ["notes"], key: "n1" },
    { namespacePrefix: ["notes"], limit: 5, offset: 0 },
    { namespace: ["notes"], key: "n1", value: null },
    { namespace: ["notes"], key: "n1" },
  ]);
  report.store = {
    got: got && {
      namespace: got.namespace,
      key: got.key,
      value: got.value,
      dates: got.createdAt instanceof Date && got.updatedAt instanceof Date,
    },
    missing,
    queried: queried.map((item) => ({ key: item.key, scored: typeof item.score === "number" })),
    filtered: filtered.map((item) => item.key),
    namespaces,
    shallow,
    afterDelete,
    batched: [
      batched[0] ?? null,
      batched[1]?.value ?? null,
      batched[2].map((item) => item.key),
      batched[3] ?? null,
      batched[4],
    ],
    reservedRoot: await store.put(["langgraph"], "k", { content: "x" }).then(
      () => "accepted",
      (error) => error.name,
    ),
  };
}

// 4. A LangGraph graph compiled with the store: its nodes read and write this memory through the runtime's store.
{
  const store = new MemoryLedgerStore(createMemoryClient({ baseUrl, apiKey }));
  const State = Annotation.Root({ question: Annotation(), answer: Annotation() });
  const graph = new StateGraph(State)
    .addNode("remember", async (_state, config) => {
      await config.store.put(["agent"], "drink", { content: "The user drinks flat whites" });
      return {};
    })
    .addNode("recall", async (state, config) => {
      const [hit] = await config.store.search(["agent"], { query: state.question });
      return { answer: hit?.value?.content ?? null };
    })
    .addEdge(START, "remember")
    .addEdge("remember", "recall")
    .addEdge("recall", END)
    .compile({ store });
  const result = await graph.invoke({ question: "which coffee does the user drink?" });
  const client = createMemoryClient({ baseUrl, apiKey });
  const [stored] = (await client.memories.search({ query: "flat whites" })).map((hit) => hit.memory);
  report.graph = { answer: result.answer, stored: stored && { text: stored.text, namespace: stored.namespace } };
}

console.log(JSON.stringify(report));

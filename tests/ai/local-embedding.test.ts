import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import { InvalidArgumentError } from "@ai-sdk/provider";
import { cosineSimilarity, embed, embedMany } from "ai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { embeddingModelId } from "@/lib/ai/config";
import {
  closeLocalEncoderPool,
  type EncodedTexts,
  LOCAL_EMBEDDING_DIMENSIONS,
  LOCAL_EMBEDDING_MODEL_ID,
  LocalEmbeddingModel,
  LocalEncoderPool,
  lengthGroupedBatches,
  localEncoderPool,
} from "@/lib/ai/local-embedding";
import { configuredEmbeddingModel } from "@/lib/ai/models";
import { createModelRegistry } from "@/lib/ai/registry";
import { parseConfig } from "@/lib/config";

// At the process's priority: beside vitest's other workers, a thread below it crawls (docs/performance.md).
const model = createModelRegistry(parseConfig({ LOCAL_EMBEDDING_NICENESS: "0" })).embeddingModel("local:use-lite");
const networkAttempts: string[] = [];
const consoleCalls: unknown[][] = [];

// The model loads once for this file, with every way out of this thread blocked and the console watched; the encoder's
// worker threads (lib/ai/local-embedding-worker.mjs) refuse the network themselves, so loading there cannot reach it.
beforeAll(async () => {
  const fetchStub = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    networkAttempts.push(`fetch ${String(input)}`);
    throw new Error("network is blocked in this test");
  });
  const connectStub = vi.spyOn(net.Socket.prototype, "connect").mockImplementation((...args) => {
    networkAttempts.push(`connect ${JSON.stringify(args[0])}`);
    throw new Error("network is blocked in this test");
  });
  const consoleStubs = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args) => void consoleCalls.push([method, ...args])),
  );
  try {
    await embed({ model, value: "warm up" });
  } finally {
    for (const stub of [fetchStub, connectStub, ...consoleStubs]) stub.mockRestore();
  }
});

afterAll(() => vi.restoreAllMocks());

async function vectorOf(value: string) {
  return (await embed({ model, value })).embedding;
}

describe("local embedding model", () => {
  it("is the registry's local:use-lite and loads with the network blocked, printing nothing", () => {
    expect(model).toBeInstanceOf(LocalEmbeddingModel);
    expect({ provider: model.provider, modelId: model.modelId }).toEqual({ provider: "local", modelId: "use-lite" });
    expect(networkAttempts).toEqual([]);
    expect(consoleCalls).toEqual([]);
  });

  it("embeds through embed() into 512 unit-length dimensions, the same vector every time", async () => {
    const first = await vectorOf("I work as a nurse in Toronto.");
    const second = await vectorOf("I work as a nurse in Toronto.");
    expect(first).toHaveLength(LOCAL_EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...first)).toBeCloseTo(1, 4);
    expect(second).toEqual(first);
  });

  it("keeps embedMany's order across batches of mixed lengths, each vector as if embedded alone", async () => {
    const values = [
      "A long memory about the user's weekly routine: swimming on Mondays, choir on Wednesdays and a long run at the weekend.",
      "Coffee.",
      "The user's sister lives in Lisbon and visits every spring.",
      "Likes jazz.",
      "The project deadline moved from March to the end of April because the vendor was late.",
      "Has two cats.",
      "Prefers short answers without bullet points.",
    ];
    const small = new LocalEmbeddingModel({ batchSize: 2 });
    const { embeddings, usage } = await embedMany({ model: small, values });
    expect(embeddings).toHaveLength(values.length);
    for (const [index, value] of values.entries()) {
      const alone = await vectorOf(value);
      const difference = Math.max(...alone.map((x, i) => Math.abs(x - (embeddings[index] as number[])[i]!)));
      expect(difference, value).toBeLessThan(1e-5);
    }
    expect(usage.tokens).toBeGreaterThanOrEqual(values.join(" ").split(" ").length);
  });

  it("serves concurrent calls, each its own vectors", async () => {
    const a = ["The user is vegetarian.", "The user drives a red Toyota Corolla."];
    const b = ["The user's daughter is called Emma."];
    const [many, one] = await Promise.all([embedMany({ model, values: a }), embed({ model, value: b[0]! })]);
    expect(many.embeddings[1]).toEqual(await vectorOf(a[1]!));
    expect(one.embedding).toEqual(await vectorOf(b[0]!));
  });

  // Each memory, a question about it, and a question about something else.
  it.each([
    ["I work as a nurse in Toronto.", "what's my job?", "my favourite colour is green"],
    ["I work as a nurse in Toronto.", "What is my profession?", "What is my favourite colour?"],
    ["My favourite colour is green.", "What colour do I like best?", "What is my profession?"],
    ["I am allergic to peanuts.", "Do I have any food allergies?", "What car do I drive?"],
    ["My daughter's name is Emma.", "What are my children called?", "Where did I go on holiday?"],
    ["The user prefers dark mode in every editor.", "Which theme does the user like?", "The user is vegetarian."],
  ])("puts %j closer to %j than to %j", async (memory, related, unrelated) => {
    const { embeddings } = await embedMany({ model, values: [memory, related, unrelated] });
    const [m, r, u] = embeddings as [number[], number[], number[]];
    expect(cosineSimilarity(m, r)).toBeGreaterThan(cosineSimilarity(m, u));
  });

  it("finds each question's memory first among several", async () => {
    const memories = [
      "I work as a nurse in Toronto.",
      "My favourite colour is green.",
      "I am allergic to peanuts.",
      "I drive a red Toyota Corolla.",
      "My daughter's name is Emma.",
      "We went to Portugal for our summer holiday.",
    ];
    const questions = [
      "What is my job?",
      "What colour do I like best?",
      "Do I have any food allergies?",
      "What car do I drive?",
      "What are my children called?",
      "Where did I travel last summer?",
    ];
    const { embeddings } = await embedMany({ model, values: [...memories, ...questions] });
    const memoryVectors = embeddings.slice(0, memories.length);
    const nearest = embeddings.slice(memories.length).map((question) => {
      const scores = memoryVectors.map((memory) => cosineSimilarity(question, memory));
      return memories[scores.indexOf(Math.max(...scores))];
    });
    expect(nearest).toEqual(memories);
  });

  it("rejects blank text before embedding anything", async () => {
    await expect(embed({ model, value: "" })).rejects.toThrow(InvalidArgumentError);
    await expect(embedMany({ model, values: ["fine", "  \n"] })).rejects.toThrow(/blank text \(values at index 1\)/);
  });

  it("embeds in the pool's worker threads, a batch per task", async () => {
    const pool = localEncoderPool();
    const before = pool.completed.document;
    const small = new LocalEmbeddingModel({ batchSize: 2 });
    await embedMany({ model: small, values: ["one fact", "two facts", "three facts"] });
    expect(pool.completed.document - before).toBe(2);
  });

  it("stops before the batches still waiting when the call is aborted", async () => {
    const pool = localEncoderPool();
    const before = pool.completed.document;
    const controller = new AbortController();
    const small = new LocalEmbeddingModel({ batchSize: 1 });
    const call = small.doEmbed({ values: ["one", "two", "three"], abortSignal: controller.signal });
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    // Only the batch already handed to the worker ran: once it has, a later call's batch is the next to run (the
    // pool runs them in order), so the aborted ones never did.
    await expect.poll(() => pool.completed.document - before, { timeout: 15_000 }).toBe(1);
    await embedMany({ model: small, values: ["four"] });
    expect(pool.completed.document - before).toBe(2);
  });

  it("embeds a search's query while memories' batch is still running", async () => {
    const pool = localEncoderPool();
    // Both threads have their model loaded, so that what is timed is the batches.
    await Promise.all([pool.embed(["loaded"], "document"), pool.embed(["loaded?"], "query")]);
    const order: string[] = [];
    // One batch of 48 memories, handed to its thread at once: about half a second there.
    const memories = Array.from({ length: 48 }, (_, i) => `Memory number ${i} about the user's week and their plans.`);
    const backlog = pool.embed(memories, "document").then(() => order.push("memories"));
    const query = pool.embed(["what did I do?"], "query").then(() => order.push("query"));
    await Promise.all([backlog, query]);
    expect(order).toEqual(["query", "memories"]);
  });

  it("embeds queries that waited together as one batch, each getting its own vector", async () => {
    const pool = localEncoderPool();
    const questions = ["where do I live?", "what is my sister called?", "which tea do I drink?"];
    const alone: EncodedTexts[] = [];
    for (const value of questions) alone.push(await pool.embed([value], "query"));
    const before = pool.completed.query;
    const busy = pool.embed(["What is the query thread embedding now?"], "query");
    const together = await Promise.all(questions.map((value) => pool.embed([value], "query")));
    await busy;
    expect(pool.completed.query - before).toBe(2);
    for (const [index, result] of together.entries()) {
      const single = alone[index] as EncodedTexts;
      expect(cosineSimilarity(result.vectors[0] as number[], single.vectors[0] as number[])).toBeGreaterThan(0.999);
      expect(result.tokens).toBe(single.tokens);
    }
  });

  it("loads the query thread's model as the pool starts, before any search", async () => {
    await closeLocalEncoderPool();
    const pool = localEncoderPool();
    await expect.poll(() => pool.completed, { timeout: 60_000 }).toEqual({ query: 1, document: 0 });
  });

  // Linux only: a thread's niceness is its own there. A process already near 19 could not tell the two apart.
  it.runIf(process.platform === "linux" && niceness(String(process.pid)) <= 12)(
    "runs the memories' threads the configured steps below the process's priority, the query's thread at it",
    async () => {
      const before = new Set(threadIds());
      const pool = new LocalEncoderPool(1, 7);
      try {
        await Promise.all([pool.embed(["a memory"], "document"), pool.embed(["a query?"], "query")]);
        const own = niceness(String(process.pid));
        const started = threadIds().filter((tid) => !before.has(tid));
        expect(new Set(started.map(niceness))).toEqual(new Set([own, own + 7]));
      } finally {
        await pool.close();
      }
    },
  );

  it("warns that it cannot change the number of dimensions", async () => {
    const result = await model.doEmbed({ values: ["hello"], dimensions: 256 });
    expect(result.embeddings[0]).toHaveLength(512);
    expect(result.warnings).toEqual([expect.objectContaining({ type: "unsupported", feature: "dimensions" })]);
  });
});

/** This process's threads (Linux: /proc/self/task). */
function threadIds(): string[] {
  return readdirSync("/proc/self/task");
}

/** A thread's niceness: the 19th field of its stat line, counted after the name in parentheses. */
function niceness(tid: string): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

describe("length-grouped batches", () => {
  it("groups indices of similar length, every index once", () => {
    expect(lengthGroupedBatches([5, 1, 9, 3, 7], 2)).toEqual([[1, 3], [0, 4], [2]]);
    expect(lengthGroupedBatches([], 16)).toEqual([]);
  });
});

describe("embedding model from the environment", () => {
  it.each([
    [undefined, LOCAL_EMBEDDING_MODEL_ID],
    ["", LOCAL_EMBEDDING_MODEL_ID],
    ["  ", LOCAL_EMBEDDING_MODEL_ID],
    ["local", LOCAL_EMBEDDING_MODEL_ID],
    ["local:use-lite", "local:use-lite"],
    ["none", null],
    [" NONE ", null],
    ["openai:text-embedding-3-small", "openai:text-embedding-3-small"],
  ])("EMBEDDING_MODEL=%j names %j", (value, id) => {
    expect(embeddingModelId(parseConfig({ EMBEDDING_MODEL: value }))).toBe(id);
  });

  it("refuses an id that names no provider", () => {
    expect(() => parseConfig({ EMBEDDING_MODEL: "text-embedding-3-small" })).toThrow(/EMBEDDING_MODEL must be/);
  });

  it("configures the local model when unset, local or local:use-lite, and none for none", () => {
    for (const value of [undefined, "", "local", "local:use-lite"]) {
      expect(configuredEmbeddingModel(parseConfig({ EMBEDDING_MODEL: value }))).toBeInstanceOf(LocalEmbeddingModel);
    }
    expect(configuredEmbeddingModel(parseConfig({ EMBEDDING_MODEL: "none" }))).toBeUndefined();
  });
});

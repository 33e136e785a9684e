import { createOpenAI } from "@ai-sdk/openai";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { extractionRuns } from "@/lib/db/schema";
import { runExtraction, toWireOp } from "@/lib/memory/extraction";
import { listMemories } from "@/lib/memory/store";
import { JobQueue } from "@/lib/server/queue";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { type ProviderStub, startProviderStub } from "../support/provider-stubs";
import { until } from "../support/worker-process";
import { addExchange } from "./support";

it("EXTRACTION_CONCURRENCY is 4 unset, a whole number from 1 to 64, anything else refused", () => {
  expect(parseConfig({}).EXTRACTION_CONCURRENCY).toBe(4);
  expect(parseConfig({ EXTRACTION_CONCURRENCY: "8" }).EXTRACTION_CONCURRENCY).toBe(8);
  for (const bad of ["0", "-1", "2.5", "many", "65"]) {
    expect(() => parseConfig({ EXTRACTION_CONCURRENCY: bad }), bad).toThrow(
      `EXTRACTION_CONCURRENCY must be a whole number from 1 to 64 (got "${bad}").`,
    );
  }
});

describeEachDatabase("one user's stalled manager call", (use) => {
  let queue: JobQueue;
  let stub: ProviderStub;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const stalls = (request: { body: unknown }) => JSON.stringify(request.body).includes("stall-me");

  beforeAll(async () => {
    // The first user's manager call gets no answer until the suite ends; everyone else's is answered at once.
    stub = await startProviderStub(
      "openai-chat",
      (request) => {
        if (stalls(request)) return { json: '{"ops":[]}' };
        const op = toWireOp({
          op: "insert",
          kind: "memory",
          content: { content: "User likes tea" },
          messageId: "u-other",
          quote: "I like tea",
        });
        return { json: JSON.stringify({ ops: [op] }) };
      },
      { beforeReply: async (request) => (stalls(request) ? released : undefined) },
    );
    const model = createOpenAI({ baseURL: stub.baseURL, apiKey: "test" }).chat("gpt-5-mini");
    queue = await JobQueue.open(use(), { pollingIntervalSeconds: 0.5, concurrency: 2 });
    await queue.work(async (data, meta) => {
      const ctx = contextFor(use(), data.userId, { actor: { type: "extractor", id: "gpt-5-mini" } });
      await runExtraction(
        { ctx, model, modelId: "openai:gpt-5-mini" },
        { threadId: data.threadId, jobId: meta.jobId, finalAttempt: true },
      );
    });
  });
  afterAll(async () => {
    // Answered now, the stalled run ends by itself: cut off, the SDK would retry it with backoff for seconds.
    release();
    await queue.stop(10_000);
    await stub.close();
  });

  it("never holds back another user's run", async () => {
    const database = use();
    const slow = await createUser(database);
    const other = await createUser(database);
    await addExchange(database, slow, "t", ["u-slow", "user", "stall-me: I like tea"]);
    await queue.enqueue({ userId: slow, threadId: "t" }, 0);
    await until(async () => stub.requests.length === 1, 30_000, "the stalled call to start");

    await addExchange(database, other, "t", ["u-other", "user", "I like tea"]);
    await queue.enqueue({ userId: other, threadId: "t" }, 0);
    await until(
      async () => (await listMemories(contextFor(database, other), {})).memories.length === 1,
      30_000,
      "the other user's run to apply",
    );
    const [slowRun] = await database.unbound.db
      .select()
      .from(extractionRuns)
      .where(and(eq(extractionRuns.userId, slow), eq(extractionRuns.threadId, "t")));
    expect(slowRun).toMatchObject({ status: "running" });
  }, 60_000);
});

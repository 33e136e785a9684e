import { MockEmbeddingModelV4 } from "ai/test";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import type { MemoryContext } from "@/lib/memory/core";
import { embeddingBacklog, embeddingBacklogAcrossUsers, embedMissing, searchMemories } from "@/lib/memory/search";
import { createMemories, createMemory } from "@/lib/memory/store";
import { EMBEDDING_QUEUE, JobQueue } from "@/lib/server/queue";
import { describeEachDatabase, unfinishedJobs } from "../support/databases";
import { contextFor, createUser } from "./support";

const TOPICS = [/job|nurse|work/i, /home|live|city/i];
const topicModel = (modelId: string) =>
  new MockEmbeddingModelV4({
    provider: "test",
    modelId,
    doEmbed: async ({ values }) => ({
      embeddings: values.map((value) => [...TOPICS.map((topic) => (topic.test(value) ? 1 : 0)), 0.01]),
      warnings: [],
    }),
  });

const waitForNoBacklog = (ctx: MemoryContext) =>
  vi.waitFor(async () => expect(await embeddingBacklog(ctx)).toBe(0), { timeout: 20_000, interval: 100 });

/** A queue working the embeddings of the contexts a test registers, open for the suite's tests. */
function embeddingQueue(use: () => Database, pollingIntervalSeconds: number) {
  const contexts = new Map<string, MemoryContext>();
  let queue: JobQueue;
  beforeAll(async () => {
    queue = await JobQueue.open(use(), { pollingIntervalSeconds });
    await queue.workEmbeddings(async ({ userId }) => {
      const ctx = contexts.get(userId)!;
      while ((await embedMissing(ctx)) > 0) {
        // until nothing is missing
      }
    });
  });
  afterAll(async () => {
    await queue.stop(5_000);
  });
  return { contexts, schedule: (userId: string) => queue.scheduleEmbedding(userId) };
}

describeEachDatabase("vectors computed by a queued job", (use, backend) => {
  // The PostgreSQL and the Citus cluster on the test machines have no pgvector.
  if (backend !== "pglite") {
    it("are off without pgvector: nothing is queued and nothing waits", async () => {
      const ctx = { ...contextFor(use(), await createUser(use())), embeddingModel: topicModel("a") };
      await createMemory(ctx, { content: "Works as a nurse" });
      expect(await embeddingBacklog(ctx)).toBe(0);
      expect(await embeddingBacklogAcrossUsers(use(), topicModel("a"))).toEqual({ users: [], pending: 0 });
    });
    return;
  }

  const model = topicModel("v1");
  const { contexts, schedule } = embeddingQueue(use, 0.5);

  it("after the write commits, off the request: the write returns before any vector exists", async () => {
    const userId = await createUser(use());
    const ctx: MemoryContext = {
      ...contextFor(use(), userId),
      embeddingModel: model,
      scheduleEmbedding: schedule,
    };
    contexts.set(userId, ctx);
    const calls = model.doEmbedCalls.length;
    await createMemories(ctx, [{ content: "Works as a nurse in Toronto" }, { content: "Lives in a small city" }]);
    expect(model.doEmbedCalls.length).toBe(calls);
    await waitForNoBacklog(ctx);
    // One provider call for the batch, and the paraphrase is found by meaning.
    expect(model.doEmbedCalls.slice(calls).flatMap((call) => call.values)).toHaveLength(2);
    const [hit] = await searchMemories(ctx, { query: "what's my job?", mode: "vector" });
    expect(hit?.memory.text).toBe("Works as a nurse in Toronto");
  });

  it("catches up on memories written without vectors, and again after a model change", async () => {
    const userId = await createUser(use());
    const plain = contextFor(use(), userId);
    await createMemories(plain, [{ content: "Works nights" }, { content: "Lives near the sea" }]);
    const first = { ...plain, embeddingModel: model };
    expect(await embeddingBacklog(first)).toBe(2);
    const across = await embeddingBacklogAcrossUsers(use(), model);
    expect(across.users).toContain(userId);
    contexts.set(userId, first);
    await schedule(userId);
    await waitForNoBacklog(first);

    const next = topicModel("v2");
    const switched = { ...plain, embeddingModel: next };
    expect(await embeddingBacklog(switched)).toBe(2);
    contexts.set(userId, switched);
    await schedule(userId);
    await waitForNoBacklog(switched);
    const [rows] = await use().unbound.rows<{ models: string[] }>(
      sql`select array_agg(distinct model order by model) as models from memory_embeddings where user_id = ${userId}::uuid`,
    );
    expect(rows?.models).toEqual(["test:v1", "test:v2"]);
  });
});

describeEachDatabase("a scheduled embedding in the process that works the queue", (use, backend) => {
  // The PostgreSQL and the Citus cluster on the test machines have no pgvector: nothing is scheduled there.
  if (backend !== "pglite") {
    it.skip("needs pgvector", () => {});
    return;
  }
  const model = topicModel("wake");
  // Polling this rarely, only the wake-up can explain a vector within the wait below.
  const { contexts, schedule } = embeddingQueue(use, 60);

  it("wakes that process's worker instead of waiting for its next poll", async () => {
    const userId = await createUser(use());
    const ctx: MemoryContext = {
      ...contextFor(use(), userId),
      embeddingModel: model,
      scheduleEmbedding: schedule,
    };
    contexts.set(userId, ctx);
    // The worker's first poll (at start) has passed: the job below is new to it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await createMemory(ctx, { content: "Works as a nurse in Toronto" });
    await waitForNoBacklog(ctx);
  });
});

describeEachDatabase("embedding jobs asked for while one is waiting", (use, backend) => {
  let queue: JobQueue;
  let send: ReturnType<typeof vi.spyOn>;
  beforeAll(async () => {
    // Polling this rarely, a job starts only when a worker starts (its first poll) or is woken.
    queue = await JobQueue.open(use(), { pollingIntervalSeconds: 60 });
    send = vi.spyOn(queue.boss, "send");
  });
  afterAll(async () => {
    await queue.stop(5_000);
  });

  it.runIf(backend === "pglite")(
    "on PGlite a burst of writes sends one job, and a write after that job started sends the next",
    async () => {
      const userId = await createUser(use());
      await Promise.all([queue.scheduleEmbedding(userId), queue.scheduleEmbedding(userId)]);
      await queue.scheduleEmbedding(userId);
      expect(send).toHaveBeenCalledTimes(1);

      let started!: () => void;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await queue.workEmbeddings(async (job) => {
        if (job.userId !== userId) return;
        started();
        await held;
      });
      await running;
      // The running job may have read the user's memories already: this write needs a job of its own.
      await queue.scheduleEmbedding(userId);
      expect(send).toHaveBeenCalledTimes(2);
      expect(await unfinishedJobs(use(), EMBEDDING_QUEUE, userId)).toBe(2);
      release();
    },
  );

  it.skipIf(backend === "pglite")(
    "on a server every write sends, since another process's worker may have started the job",
    async () => {
      const userId = await createUser(use());
      await Promise.all([queue.scheduleEmbedding(userId), queue.scheduleEmbedding(userId)]);
      await queue.scheduleEmbedding(userId);
      expect(send).toHaveBeenCalledTimes(3);
      expect(await unfinishedJobs(use(), EMBEDDING_QUEUE, userId)).toBe(1);
    },
  );
});

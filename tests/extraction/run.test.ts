import { MockEmbeddingModelV4, MockLanguageModelV4 } from "ai/test";
import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { extractionRuns, threads } from "@/lib/db/schema";
import type { MemoryContext } from "@/lib/memory/core";
import { failedRunThread, RunSupersededError, runExtraction, threadExtractionRuns } from "@/lib/memory/extraction";
import { embedMissing } from "@/lib/memory/search";
import { createMemory, deleteMemory, listMemories, memoryHistory } from "@/lib/memory/store";
import { contextFor, createUser, withEmbedding } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { addExchange, scriptedManager } from "./support";

let jobs = 0;
const job = (threadId: string, finalAttempt = true) => ({ threadId, jobId: `job-${++jobs}`, finalAttempt });

describeEachDatabase("extraction manager", (use, backend) => {
  async function setup() {
    const database = use();
    const userId = await createUser(database);
    return { database, userId, ctx: contextFor(database, userId) };
  }
  const runs = async (ctx: MemoryContext, threadId: string) =>
    ctx.database.unbound.db
      .select()
      .from(extractionRuns)
      .where(and(eq(extractionRuns.userId, ctx.principal.userId), eq(extractionRuns.threadId, threadId)));

  it("inserts, updates and deletes with provenance, and records the run", async () => {
    const { database, userId, ctx } = await setup();
    const old = await createMemory(ctx, { content: "User lives in Porto" });
    const stale = await createMemory(ctx, { content: "User drinks black coffee" });
    await addExchange(
      database,
      userId,
      "t1",
      ["m1", "user", "I moved to Lisbon last month. I stopped drinking coffee."],
      ["a1", "assistant", "Noted."],
    );
    const model = scriptedManager([
      {
        op: "insert",
        kind: "episode",
        content: { observation: "Moved to Lisbon", thoughts: "-", action: "moved", result: "lives in Lisbon" },
        messageId: "m1",
        quote: "I moved to Lisbon last month",
      },
      {
        op: "update",
        id: old.id,
        expectedVersion: 1,
        content: { content: "User lives in Lisbon" },
        messageId: "m1",
        quote: "moved to Lisbon",
        reason: "moved",
      },
      {
        op: "delete",
        id: stale.id,
        messageId: "m1",
        quote: "I stopped drinking coffee",
        reason: "stopped drinking coffee",
      },
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "mock" }, job("t1"));
    expect(outcome).toMatchObject({ status: "succeeded" });
    if (outcome.status !== "succeeded") return;
    expect(outcome.applied.map((a) => a.op)).toEqual(["insert", "update", "delete"]);

    const history = await memoryHistory(ctx, old.id);
    expect(history.at(-1)).toMatchObject({
      op: "update",
      actor: { type: "extractor", id: "mock" },
      source: { type: "extraction", threadId: "t1", messageId: "m1", quote: "moved to Lisbon", runId: outcome.runId },
    });
    const [run] = await runs(ctx, "t1");
    expect(run).toMatchObject({ status: "succeeded", fromPosition: 0, throughPosition: 2, inputTokens: 100 });
    expect(run!.opsProposed).toHaveLength(3);
    // The prompt showed the existing memories with ids and versions, and the new messages with ids.
    const prompt = JSON.stringify(model.doGenerateCalls[0]!.prompt);
    expect(prompt).toContain(old.id);
    expect(prompt).toContain("m1");
  });

  it("rejects a hallucinated id, a quote not in the message, and a message it was not shown, writing nothing", async () => {
    const { database, userId, ctx } = await setup();
    const other = await createUser(database);
    const foreign = await createMemory(contextFor(database, other), { content: "Someone else's fact" });
    await addExchange(database, userId, "t2", ["m2", "user", "My favourite colour is green"]);
    const model = scriptedManager([
      {
        op: "update",
        id: foreign.id,
        expectedVersion: 1,
        content: { content: "hijack" },
        messageId: "m2",
        quote: "green",
        reason: "x",
      },
      { op: "delete", id: "00000000-0000-4000-8000-000000000000", messageId: "m2", quote: "green", reason: "made up" },
      {
        op: "insert",
        kind: "memory",
        content: { content: "User's favourite colour is blue" },
        messageId: "m2",
        quote: "colour is blue",
      },
      {
        op: "insert",
        kind: "memory",
        content: { content: "User likes green" },
        messageId: "elsewhere",
        quote: "green",
      },
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "mock" }, job("t2"));
    expect(outcome.status === "succeeded" && outcome.rejected.map((r) => r.reason)).toEqual([
      "unknown id: not among the memories shown to the manager",
      "unknown id: not among the memories shown to the manager",
      "the quote does not occur in the cited message",
      "the cited message is not among the new messages",
    ]);
    expect((await listMemories(ctx, {})).memories).toHaveLength(0);
    expect(await memoryHistory(contextFor(database, other), foreign.id)).toHaveLength(1);
  });

  it("never re-inserts a fact the user deleted, even restated in a later conversation", async () => {
    const { database, userId, ctx } = await setup();
    const fact = await createMemory(ctx, { content: "User's ex is called Sam" });
    await deleteMemory(ctx, fact.id, { reason: "user asked" });
    await addExchange(database, userId, "t4", ["m4", "user", "Remember that my ex is called Sam"]);
    const model = scriptedManager([
      {
        op: "insert",
        kind: "memory",
        content: { content: "User's ex is called Sam" },
        messageId: "m4",
        quote: "my ex is called Sam",
      },
      {
        op: "insert",
        kind: "memory",
        content: { content: "User's ex is named Sam" },
        messageId: "m4",
        quote: "my ex is called Sam",
      },
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "mock" }, job("t4"));
    expect(outcome.status === "succeeded" && outcome.rejected.map((r) => r.reason.split(":")[0])).toEqual([
      "deleted by the user",
      "deleted by the user",
    ]);
    expect((await listMemories(ctx, {})).memories).toHaveLength(0);
    expect(JSON.stringify(model.doGenerateCalls[0]!.prompt)).toContain("User's ex is called Sam");
  });

  it("works over memories the chat tools wrote, and a duplicate becomes a no-op", async () => {
    const { database, userId, ctx } = await setup();
    const toolWritten = await createMemory(
      { ...ctx, actor: { type: "agent", id: "offline" } },
      { content: "User prefers dark mode", provenance: { source: "chat", threadId: "t5", messageId: "m5" } },
    );
    await addExchange(
      database,
      userId,
      "t5",
      ["m5", "user", "I prefer dark mode"],
      ["m6", "user", "Actually, I prefer light mode"],
    );
    const outcome = await runExtraction({ ctx, model: new OfflineLanguageModel(), modelId: "offline" }, job("t5"));
    expect(outcome.status).toBe("succeeded");
    const [memory] = (await listMemories(ctx, {})).memories;
    expect(memory).toMatchObject({ id: toolWritten.id, text: "User prefers light mode", version: 2 });
    expect(memory!.actor).toEqual({ type: "extractor", id: "offline" });
  });

  it("applying the same run twice changes nothing; a failure is recorded, not half-applied", async () => {
    const { database, userId, ctx } = await setup();
    await addExchange(database, userId, "t6", ["m7", "user", "My name is Ada"]);
    const offline = new OfflineLanguageModel();
    const first = job("t6");
    await runExtraction({ ctx, model: offline, modelId: "offline" }, first);
    const again = await runExtraction({ ctx, model: offline, modelId: "offline" }, first);
    expect(again).toEqual({ status: "skipped", reason: "no new messages" });
    expect((await listMemories(ctx, {})).memories.map((m) => m.text)).toEqual(["User's name is Ada"]);

    await addExchange(database, userId, "t6", ["m8", "user", "I am a pilot"]);
    const failing = scriptedManager();
    const attempt = job("t6", false);
    await expect(runExtraction({ ctx, model: failing, modelId: "mock" }, attempt)).rejects.toThrow();
    let latest = (await runs(ctx, "t6")).find((r) => r.jobId === attempt.jobId);
    expect(latest).toMatchObject({ status: "queued", attempts: 1 });
    expect(latest!.error).toBeTruthy();
    await expect(
      runExtraction({ ctx, model: failing, modelId: "mock" }, { ...attempt, finalAttempt: true }),
    ).rejects.toThrow();
    latest = (await runs(ctx, "t6")).find((r) => r.jobId === attempt.jobId);
    expect(latest).toMatchObject({ status: "failed", attempts: 2 });
    // Stamped by the context's clock (which starts on 2026-01-01 in these tests), not the wall clock.
    const clockDay = (at: Date | null | undefined) => at?.toISOString().slice(0, 10);
    expect([clockDay(latest!.startedAt), clockDay(latest!.finishedAt)]).toEqual(["2026-01-01", "2026-01-01"]);
    expect(await failedRunThread(ctx, latest!.id)).toBe("t6");
    expect(await failedRunThread(contextFor(database, await createUser(database)), latest!.id)).toBeNull();
    const succeeded = (await runs(ctx, "t6")).find((r) => r.status === "succeeded")!;
    expect(await failedRunThread(ctx, succeeded.id)).toBeNull();
    expect((await listMemories(ctx, {})).memories).toHaveLength(1);
  });

  it("a job back after its run committed (its worker died before reporting it done) keeps that run's record", async () => {
    const { database, userId, ctx } = await setup();
    const offline = new OfflineLanguageModel();
    const deps = { ctx, model: offline, modelId: "offline" };
    await addExchange(database, userId, "t9", ["r1", "user", "I live in Oslo"]);
    const attempt = job("t9", false);
    const first = await runExtraction(deps, attempt);
    // Before the retry a new exchange arrives, and the debounced enqueue lands on this same waiting job.
    await addExchange(database, userId, "t9", ["r2", "user", "I prefer tea"]);
    const second = await runExtraction(deps, attempt);

    expect(first.status === "succeeded" && second.status === "succeeded" && first.runId !== second.runId).toBe(true);
    const recorded = (await runs(ctx, "t9")).sort((a, b) => a.fromPosition - b.fromPosition);
    expect(recorded).toMatchObject([
      {
        status: "succeeded",
        fromPosition: 0,
        throughPosition: 1,
        attempts: 1,
        opsApplied: [{ text: "User lives in Oslo" }],
      },
      {
        status: "succeeded",
        fromPosition: 1,
        throughPosition: 2,
        attempts: 1,
        opsApplied: [{ text: "User prefers tea" }],
      },
    ]);
    // The thread's newest run alone says the thread has older ones; both together say nothing is left out.
    expect(await threadExtractionRuns(ctx, "t9", 1)).toMatchObject({ runs: [{}], truncated: true });
    expect(await threadExtractionRuns(ctx, "t9", 2)).toMatchObject({ runs: [{}, {}], truncated: false });
  });

  it("leaves a chat turn still running to the run its answer enqueues, so it never races the chat to a fact", async () => {
    const { database, userId, ctx } = await setup();
    const deps = { ctx, model: new OfflineLanguageModel(), modelId: "offline" };
    const afterAnswer = (threadId: string) => ({ ...job(threadId), answeredOnly: true });
    await addExchange(database, userId, "t10", ["f1", "user", "I live in Oslo"], ["f2", "assistant", "Noted."]);
    // The next turn has stored its user message; its agent has not saved the fact yet.
    await addExchange(database, userId, "t10", ["f3", "user", "Remember that I fly gliders"]);
    const early = await runExtraction(deps, afterAnswer("t10"));
    expect(early.status === "succeeded" && early.applied.map((op) => op.text)).toEqual(["User lives in Oslo"]);
    expect(await runExtraction(deps, afterAnswer("t10"))).toEqual({
      status: "skipped",
      reason: "the newest message is not answered yet",
    });

    // The turn ends: the agent saves the fact, then the answer is stored and enqueues the next run.
    const agent = contextFor(database, userId, { actor: { type: "agent", id: "offline" } });
    await createMemory(agent, { content: "User flies gliders" });
    await addExchange(database, userId, "t10", ["f4", "assistant", "Got it."]);
    expect(await runExtraction(deps, afterAnswer("t10"))).toMatchObject({ status: "succeeded", applied: [] });

    const texts = (await listMemories(ctx, {})).memories.map((m) => m.text).sort();
    expect(texts).toEqual(["User flies gliders", "User lives in Oslo"]);
    const ranges = (await runs(ctx, "t10")).map((r) => [r.fromPosition, r.throughPosition]).sort();
    expect(ranges).toEqual([
      [0, 2],
      [2, 4],
    ]);
  });

  it("a run overtaken by one that read all its messages and more leaves no second record of them", async () => {
    const { database, userId, ctx } = await setup();
    const offline = new OfflineLanguageModel();
    await addExchange(database, userId, "t11", ["v1", "user", "I live in Oslo"]);
    const slow = new MockLanguageModelV4({
      doGenerate: async (options) => {
        // While this run waits for its model, a later job reads the same message and a newer one, and finishes first.
        await addExchange(database, userId, "t11", ["v2", "user", "I prefer tea"]);
        await runExtraction({ ctx, model: offline, modelId: "offline" }, job("t11"));
        return offline.doGenerate(options);
      },
    });
    const overtaken = await runExtraction({ ctx, model: slow, modelId: "mock" }, job("t11"));

    expect(overtaken).toEqual({ status: "skipped", reason: "another run already extracted these messages" });
    expect((await runs(ctx, "t11")).map((r) => [r.status, r.fromPosition, r.throughPosition])).toEqual([
      ["succeeded", 0, 2],
    ]);
    expect((await listMemories(ctx, {})).memories.map((m) => m.text).sort()).toEqual([
      "User lives in Oslo",
      "User prefers tea",
    ]);

    // A superseded attempt waits as "queued" for its retry; when other runs took every message meanwhile, it goes.
    await addExchange(database, userId, "t12", ["s1", "user", "My name is Ada"], ["s2", "user", "I fly gliders"]);
    const superseded = job("t12", false);
    const racing = new MockLanguageModelV4({
      doGenerate: async (options) => {
        await database.unbound.db
          .update(threads)
          .set({ extractedThrough: 1 })
          .where(and(eq(threads.userId, userId), eq(threads.id, "t12")));
        return offline.doGenerate(options);
      },
    });
    await expect(runExtraction({ ctx, model: racing, modelId: "mock" }, superseded)).rejects.toBeInstanceOf(
      RunSupersededError,
    );
    await runExtraction({ ctx, model: offline, modelId: "offline" }, job("t12"));
    expect(await runExtraction({ ctx, model: offline, modelId: "offline" }, superseded)).toEqual({
      status: "skipped",
      reason: "no new messages",
    });
    expect((await runs(ctx, "t12")).map((r) => [r.status, r.fromPosition, r.throughPosition])).toEqual([
      ["succeeded", 1, 2],
    ]);
  });

  it("honours disabled verbs, allowed kinds, and keeps one profile document in profile mode", async () => {
    const { database, userId, ctx } = await setup();
    const kept = await createMemory(ctx, { content: "User rides a blue bike" });
    await addExchange(database, userId, "t7", ["m9", "user", "I sold my bike. My name is Lin and I am 31."]);
    const restricted = scriptedManager([
      { op: "delete", id: kept.id, messageId: "m9", quote: "I sold my bike", reason: "sold it" },
      {
        op: "insert",
        kind: "triple",
        content: { subject: "user", predicate: "age", object: "31" },
        messageId: "m9",
        quote: "I am 31",
      },
    ]);
    const outcome = await runExtraction(
      { ctx, model: restricted, modelId: "mock", config: { enableDeletes: false, kinds: ["memory"] } },
      job("t7"),
    );
    expect(outcome.status === "succeeded" && outcome.rejected.map((r) => r.reason)).toEqual([
      "delete operations are disabled",
      'kind "triple" is not allowed',
    ]);

    await addExchange(database, userId, "t7", ["m10", "user", "Call me Lin. I live in Oslo."]);
    const profile = (name: string, city: string) => ({ name, city });
    const manager = scriptedManager(
      [{ op: "insert", kind: "profile", content: profile("Lin", "Oslo"), messageId: "m10", quote: "I live in Oslo" }],
      [
        {
          op: "insert",
          kind: "profile",
          content: profile("Lin", "Bergen"),
          messageId: "m11",
          quote: "moved to Bergen",
        },
      ],
    );
    await runExtraction({ ctx, model: manager, modelId: "mock", config: { profileMode: true } }, job("t7"));
    await addExchange(database, userId, "t7", ["m11", "user", "I moved to Bergen"]);
    await runExtraction({ ctx, model: manager, modelId: "mock", config: { profileMode: true } }, job("t7"));
    const profiles = (await listMemories(ctx, { kind: "profile" })).memories;
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ content: { name: "Lin", city: "Bergen" }, version: 2 });
    expect(JSON.stringify(manager.doGenerateCalls[1]!.prompt)).toContain(profiles[0]!.id);
  });

  it("a run overlapped by another that moved the cursor applies nothing and is retried from the new cursor", async () => {
    const { database, userId, ctx } = await setup();
    await addExchange(database, userId, "t8", ["o1", "user", "My name is Ola"], ["o2", "user", "I live in Bergen"]);
    const overlapping = new MockLanguageModelV4({
      doGenerate: async () => {
        // Meanwhile another worker extracted the first message.
        await database.unbound.db.update(threads).set({ extractedThrough: 1 }).where(eq(threads.userId, userId));
        return {
          content: [{ type: "text", text: JSON.stringify({ ops: [] }) }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const attempt = job("t8", false);
    await expect(runExtraction({ ctx, model: overlapping, modelId: "mock" }, attempt)).rejects.toBeInstanceOf(
      RunSupersededError,
    );
    expect((await runs(ctx, "t8"))[0]).toMatchObject({ status: "queued", error: expect.stringContaining("cursor") });

    const retried = await runExtraction({ ctx, model: new OfflineLanguageModel(), modelId: "offline" }, attempt);
    expect(retried.status).toBe("succeeded");
    const [run] = await runs(ctx, "t8");
    expect(run).toMatchObject({ status: "succeeded", fromPosition: 1, throughPosition: 2, attempts: 2 });
    expect((await listMemories(ctx, {})).memories.map((m) => m.text)).toEqual(["User lives in Bergen"]);
  });
  // Needs pgvector, which the PostgreSQL and the Citus cluster on the test machines lack.
  it.skipIf(backend !== "pglite")(
    "embeds what a run wrote only after the run commits; a failing embedding costs the vector, never the run",
    async () => {
      const { database, userId, ctx } = await setup();
      const seenAtEmbed: string[] = [];
      const embedding = (vector: (text: string) => number[]) =>
        new MockEmbeddingModelV4({
          provider: "test",
          modelId: "after-commit",
          doEmbed: async ({ values }) => {
            if (values.some((value) => value.startsWith("The user"))) {
              // On PGlite's single connection this read would wait forever if the run's transaction were still open.
              const [run] = await database.unbound.rows<{ status: string }>(
                sql`select status from extraction_runs where user_id = ${userId}::uuid and thread_id = 'te'`,
              );
              seenAtEmbed.push(run?.status ?? "none");
            }
            return { embeddings: values.map(vector), warnings: [] };
          },
        });
      const insert = {
        op: "insert" as const,
        kind: "memory",
        content: { content: "The user keeps bees" },
        messageId: "e1",
        quote: "I keep bees",
      };
      await addExchange(database, userId, "te", ["e1", "user", "I keep bees"], ["e2", "assistant", "Nice."]);
      // pgvector refuses NaN: inside the apply transaction this insert used to abort the whole run.
      const broken = withEmbedding(
        ctx,
        embedding((text) => (text.startsWith("The user") ? [Number.NaN, 1] : [0.5, 1])),
      );
      const outcome = await runExtraction(
        { ctx: broken, model: scriptedManager([insert]), modelId: "mock" },
        job("te"),
      );
      expect(outcome).toMatchObject({ status: "succeeded", applied: [{ op: "insert" }] });
      expect(seenAtEmbed).toEqual(["succeeded"]);
      expect((await listMemories(ctx, {})).memories.map((m) => m.text)).toEqual(["The user keeps bees"]);

      const working = { ...ctx, embeddingModel: embedding(() => [0.5, 1]) };
      expect(await embedMissing(working)).toBe(1);
      const [stored] = await database.unbound.rows<{ n: number }>(
        sql`select count(*)::int as n from memory_embeddings where user_id = ${userId}::uuid and model = 'test:after-commit'`,
      );
      expect(stored?.n).toBe(1);
    },
  );
});

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { loadReviewQueue } from "@/lib/console/review";
import { optimizerRuns } from "@/lib/db/schema";
import { runOptimizer } from "@/lib/memory/optimizer";
import { createFeedback } from "@/lib/memory/procedural";
import { JobQueue, OPTIMIZER_QUEUE } from "@/lib/server/queue";
import { addExchange } from "../extraction/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase, unfinishedJobs } from "../support/databases";

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describeEachDatabase("optimizer queue", (use) => {
  let queue: JobQueue;
  beforeAll(async () => {
    queue = await JobQueue.open(use(), { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 });
    await queue.workOptimizer(async (data, meta) => {
      const ctx = contextFor(use(), data.userId, { actor: { type: "extractor", id: "offline" } });
      await runOptimizer({ ctx, model: new OfflineLanguageModel(), modelId: "offline" }, meta);
    });
  });
  afterAll(async () => {
    await queue.stop(5_000);
  });

  it("debounces a burst of feedback, asked for after each commits, into one pass per user that reads it all", async () => {
    const database = use();
    const userId = await createUser(database);
    const ctx = contextFor(database, userId, {
      scheduleOptimizer: (id) => queue.enqueueOptimizer({ userId: id }, 1_500),
    });
    await addExchange(database, userId, "t1", ["u1", "user", "Tides?"], ["a1", "assistant", "Long answer."]);
    await addExchange(database, userId, "t1", ["u2", "user", "Moon?"], ["a2", "assistant", "Long answer."]);
    await createFeedback(ctx, { messageId: "a1", rating: "down", comment: "too long, use bullet points" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await createFeedback(ctx, { messageId: "a2", rating: "down", comment: "too long, use bullet points" });

    const run = await waitFor(async () => {
      const [row] = await database.unbound.db.select().from(optimizerRuns).where(eq(optimizerRuns.userId, userId));
      return row?.status === "succeeded" ? row : undefined;
    });
    // No job of the user's is left waiting or running, so no later run can start: the one run is all there is.
    await vi.waitFor(async () => expect(await unfinishedJobs(database, OPTIMIZER_QUEUE, userId)).toBe(0), {
      timeout: 15_000,
      interval: 100,
    });
    expect(await database.unbound.db.select().from(optimizerRuns).where(eq(optimizerRuns.userId, userId))).toHaveLength(
      1,
    );
    expect(run).toMatchObject({ outcome: "proposed" });
    expect(run.feedbackIds).toHaveLength(2);

    const { items } = await loadReviewQueue(ctx, { status: "pending" });
    expect(items).toMatchObject([
      {
        op: "instructions",
        text: "Keep answers short; use bullet points.",
        instructions: { text: "", version: 0, stale: false },
      },
    ]);
  });
});

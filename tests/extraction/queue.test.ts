import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { extractionRuns } from "@/lib/db/schema";
import { runExtraction } from "@/lib/memory/extraction";
import { listMemories } from "@/lib/memory/store";
import { EXTRACTION_QUEUE, JobQueue } from "@/lib/server/queue";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase, unfinishedJobs } from "../support/databases";
import { addExchange } from "./support";

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describeEachDatabase("extraction queue", (use) => {
  let queue: JobQueue;
  beforeAll(async () => {
    queue = await JobQueue.open(use(), { pollingIntervalSeconds: 0.5, retryDelaySeconds: 1 });
    await queue.work(async (data, meta) => {
      const ctx = contextFor(use(), data.userId, { actor: { type: "extractor", id: "offline" } });
      await runExtraction(
        { ctx, model: new OfflineLanguageModel(), modelId: "offline" },
        { threadId: data.threadId, jobId: meta.jobId, finalAttempt: meta.finalAttempt },
      );
    });
  });
  afterAll(async () => {
    await queue.stop(5_000);
  });

  it("debounces three quick exchanges into one run that reads all of them", async () => {
    const database = use();
    const userId = await createUser(database);
    const exchanges: Array<[string, string]> = [
      ["My name is Ada", "Nice to meet you."],
      ["I prefer tea over coffee", "Noted."],
      ["I live in Lisbon", "Lovely city."],
    ];
    for (const [index, [said, answer]] of exchanges.entries()) {
      await addExchange(database, userId, "burst", [`u${index}`, "user", said], [`a${index}`, "assistant", answer]);
      await queue.enqueue({ userId, threadId: "burst" }, 1_500);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const run = await waitFor(async () => {
      const [row] = await database.unbound.db
        .select()
        .from(extractionRuns)
        .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.status, "succeeded")));
      return row;
    });
    // No job of the user's is left waiting or running, so no later run can start: the one run is all there is.
    await vi.waitFor(async () => expect(await unfinishedJobs(database, EXTRACTION_QUEUE, userId)).toBe(0), {
      timeout: 15_000,
      interval: 100,
    });
    const all = await database.unbound.db.select().from(extractionRuns).where(eq(extractionRuns.userId, userId));
    expect(all).toHaveLength(1);
    expect(run).toMatchObject({ fromPosition: 0, throughPosition: 6 });
    const texts = (await listMemories(contextFor(database, userId), {})).memories.map((m) => m.text).sort();
    expect(texts).toEqual(["User lives in Lisbon", "User prefers tea over coffee", "User's name is Ada"]);
  });
});

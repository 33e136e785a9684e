import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { JobQueue } from "@/lib/server/queue";
import { describeEachDatabase } from "../support/databases";

/**
 * The workers here poll once a minute, longer than any wait below: a job can only run in time if this process's own
 * send wakes a worker, or a worker that has just finished a job looks for the next at once.
 */
describeEachDatabase("job queue wakes", (use) => {
  let queue: JobQueue;
  const ran = new Map<string, number>();
  let gate: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    queue = await JobQueue.open(use(), { pollingIntervalSeconds: 60, concurrency: 1 });
    await queue.work(async (data) => {
      await gate;
      ran.set(data.threadId, Date.now());
    });
    await queue.workConsolidation(async (data) => {
      ran.set(`consolidation ${data.userId}`, Date.now());
    });
  });
  afterAll(async () => {
    await queue.stop(5_000);
  });

  it("runs a job sent for later when it comes due, not at the next poll", async () => {
    const sent = Date.now();
    await queue.enqueue({ userId: "wakes-later", threadId: "later" }, 800);
    await vi.waitFor(() => expect(ran.has("later")).toBe(true), { timeout: 15_000, interval: 50 });
    expect(ran.get("later")).toBeGreaterThanOrEqual(sent + 800);
  });

  it("takes the next job of a backlog as soon as the last one is done", async () => {
    let open = () => {};
    gate = new Promise((resolve) => {
      open = resolve;
    });
    // The one worker takes the first job and holds it; the other two find no idle worker to wake.
    for (const threadId of ["first", "second", "third"]) await queue.enqueue({ userId: "wakes-backlog", threadId }, 0);
    open();
    await vi.waitFor(() => expect([...ran.keys()]).toEqual(expect.arrayContaining(["first", "second", "third"])), {
      timeout: 15_000,
      interval: 50,
    });
  });

  it("keeps the wake of a job waiting when a second send for it is refused", async () => {
    const sent = Date.now();
    await queue.enqueueConsolidation({ userId: "wakes-refused", trigger: "manual" }, 800);
    // One consolidation job per user may wait: this one is refused, and must not carry the first one's wake away.
    await queue.enqueueConsolidation({ userId: "wakes-refused", trigger: "manual" }, 120_000);
    await vi.waitFor(() => expect(ran.has("consolidation wakes-refused")).toBe(true), {
      timeout: 15_000,
      interval: 50,
    });
    expect(ran.get("consolidation wakes-refused")).toBeGreaterThanOrEqual(sent + 800);
  });
});

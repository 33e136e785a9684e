import "../support/route-mocks";
import { afterEach, beforeEach, expect, it } from "vitest";
import { addExchange } from "../extraction/support";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { routeHarness } from "../support/route-harness";

const { handleExtractionJob } = await import("@/lib/server/worker");

let jobs = 0;
const meta = () => ({ jobId: `trigger-job-${++jobs}`, finalAttempt: true });

describeEachDatabase("consolidation after extraction", (use) => {
  beforeEach(() => {
    setEnv({ EXTRACTION_MODEL: "offline", CONSOLIDATION_AFTER: "3" });
    routeHarness.database = use();
    routeHarness.consolidationJobs.length = 0;
  });
  afterEach(() => restoreEnv());

  it("queues a run once extraction has added CONSOLIDATION_AFTER memories since the last one, not before", async () => {
    const userId = await createUser(use());
    await addExchange(
      use(),
      userId,
      "t1",
      ["m1", "user", "I play the cello. I speak Portuguese."],
      ["a1", "assistant", "Nice."],
    );
    await handleExtractionJob(use(), { userId, threadId: "t1" }, meta());
    expect(routeHarness.consolidationJobs).toEqual([]);

    await addExchange(use(), userId, "t1", ["m2", "user", "I grow tomatoes."], ["a2", "assistant", "Lovely."]);
    await handleExtractionJob(use(), { userId, threadId: "t1" }, meta());
    expect(routeHarness.consolidationJobs).toEqual([{ userId, trigger: "after_extraction" }]);
  });
});

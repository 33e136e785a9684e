import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import { listExtractionRuns } from "@/lib/console/runs";
import { runExtraction } from "@/lib/memory/extraction";
import { createMemory, getMemory, memoryHistory } from "@/lib/memory/store";
import { addExchange, scriptedManager } from "../extraction/support";
import { bindingFor, contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const memoryActions = await import("@/app/(console)/memories/actions");
const runActions = await import("@/app/(console)/memories/runs/actions");

describeEachDatabase("console: pin and undo a run", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    routeHarness.revalidated = [];
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
  });

  it("pins as the signed-in person, with a version that says so; a pinned that is no boolean is refused", async () => {
    const memory = await createMemory(contextFor(use(), me), { content: "User is vegetarian" });
    expect(await memoryActions.pinMemoryAction({ id: memory.id, pinned: true })).toMatchObject({
      ok: true,
      memory: { pinned: true, version: 2 },
    });
    const [, pinned] = await memoryHistory(contextFor(use(), me), memory.id);
    expect(pinned).toMatchObject({ reason: "pinned", actor: { type: "user", id: me }, source: { type: "console" } });
    expect(await memoryActions.pinMemoryAction({ id: memory.id, pinned: "on" })).toMatchObject({
      ok: false,
      error: { code: "unprocessable" },
    });
    const other = await createUser(use());
    const theirs = await createMemory(contextFor(use(), other), { content: "Their fact" });
    expect(await memoryActions.pinMemoryAction({ id: theirs.id, pinned: true })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
  });

  it("undoes a run from the runs page once, and the page shows it reverted", async () => {
    const ctx = contextFor(use(), me);
    await addExchange(use(), me, "ct1", ["m1", "user", "I play the cello"]);
    const outcome = await runExtraction(
      {
        ctx,
        model: scriptedManager([
          {
            op: "insert",
            kind: "memory",
            content: { content: "User plays the cello" },
            messageId: "m1",
            quote: "I play the cello",
          },
        ]),
        modelId: "mock",
      },
      { threadId: "ct1", jobId: "console-undo-1", finalAttempt: true },
    );
    if (outcome.status !== "succeeded") throw new Error("the run did not succeed");
    const inserted = outcome.applied[0]!.memoryId;

    const result = await runActions.revertRunAction(outcome.runId);
    expect(result).toEqual({ ok: true, reverted: [inserted], skipped: [] });
    expect((await getMemory(ctx, inserted)).status).toBe("deleted");
    const { runs } = await listExtractionRuns(bindingFor(use(), me));
    expect(runs[0]?.revertedAt).toBeInstanceOf(Date);
    expect(await runActions.revertRunAction(outcome.runId)).toMatchObject({ ok: false, error: { code: "conflict" } });
    expect(await runActions.revertRunAction("nope")).toMatchObject({ ok: false, error: { code: "unprocessable" } });
  });
});

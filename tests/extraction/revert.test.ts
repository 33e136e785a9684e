import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { extractionRuns } from "@/lib/db/schema";
import { revertRun, runExtraction } from "@/lib/memory/extraction";
import { createMemory, getMemory, listMemories, memoryHistory, updateMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { addExchange, rawManager, scriptedManager } from "./support";

let jobs = 0;
const job = (threadId: string, finalAttempt = true) => ({
  threadId,
  jobId: `revert-job-${++jobs}`,
  finalAttempt,
});

describeEachDatabase("reverting an extraction run", (use) => {
  async function setup() {
    const database = use();
    const userId = await createUser(database);
    // The person undoing the run, as the console and the REST API act for them.
    return { database, userId, ctx: contextFor(database, userId) };
  }

  /** A run that inserts one memory, updates `update` and deletes `remove`. */
  async function appliedRun(ctx: ReturnType<typeof contextFor>, userId: string, thread: string) {
    const update = await createMemory(ctx, { content: "User lives in Porto" });
    const remove = await createMemory(ctx, { content: "User drinks black coffee" });
    await addExchange(ctx.database, userId, thread, [
      "m1",
      "user",
      "I live in Lisbon now. I stopped drinking coffee. I play the cello.",
    ]);
    const model = scriptedManager([
      {
        op: "insert",
        kind: "memory",
        content: { content: "User plays the cello" },
        messageId: "m1",
        quote: "I play the cello",
      },
      {
        op: "update",
        id: update.id,
        expectedVersion: 1,
        content: { content: "User lives in Lisbon" },
        messageId: "m1",
        quote: "I live in Lisbon now",
        reason: "moved",
      },
      { op: "delete", id: remove.id, messageId: "m1", quote: "I stopped drinking coffee", reason: "stopped" },
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "mock" }, job(thread));
    if (outcome.status !== "succeeded") throw new Error(`run did not succeed: ${JSON.stringify(outcome)}`);
    const inserted = outcome.applied.find((op) => op.op === "insert")!.memoryId;
    return { runId: outcome.runId, update, remove, inserted };
  }

  it("reverses every applied op as new versions by the user, naming the run, in one go; a second revert is a 409", async () => {
    const { userId, ctx } = await setup();
    const { runId, update, remove, inserted } = await appliedRun(ctx, userId, "t1");

    const outcome = await revertRun(ctx, runId);
    expect(outcome.skipped).toEqual([]);
    expect(outcome.reverted.sort()).toEqual([update.id, remove.id, inserted].sort());

    expect(await getMemory(ctx, inserted)).toMatchObject({ status: "deleted", version: 2 });
    expect(await getMemory(ctx, update.id)).toMatchObject({ text: "User lives in Porto", version: 3 });
    expect(await getMemory(ctx, remove.id)).toMatchObject({ status: "active", version: 3 });
    for (const id of [inserted, update.id, remove.id]) {
      const last = (await memoryHistory(ctx, id)).at(-1)!;
      expect(last).toMatchObject({ actor: { type: "user", id: userId }, reason: `reverted extraction run ${runId}` });
    }
    const [run] = await ctx.database.unbound.db
      .select()
      .from(extractionRuns)
      .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, runId)));
    expect(run?.revertedAt).toBeInstanceOf(Date);

    await expect(revertRun(ctx, runId)).rejects.toMatchObject({ code: "conflict" });
    expect(await getMemory(ctx, update.id)).toMatchObject({ version: 3 });
  });

  it("skips and names memories changed since the run; the user's later edit stands", async () => {
    const { userId, ctx } = await setup();
    const { runId, update, remove, inserted } = await appliedRun(ctx, userId, "t2");
    await updateMemory(ctx, update.id, { content: "User lives in Lisbon, near the river" });

    const outcome = await revertRun(ctx, runId);
    expect(outcome.reverted.sort()).toEqual([remove.id, inserted].sort());
    expect(outcome.skipped).toEqual([
      {
        memoryId: update.id,
        reason: "changed since the run (the run left version 2, it is now at version 3, last changed by you)",
      },
    ]);
    expect(await getMemory(ctx, update.id)).toMatchObject({ text: "User lives in Lisbon, near the river", version: 3 });
  });

  it("refuses another user's run (404), a failed run (409) and an id that is no run (404)", async () => {
    const { database, userId, ctx } = await setup();
    const { runId } = await appliedRun(ctx, userId, "t3");
    const stranger = contextFor(database, await createUser(database));
    await expect(revertRun(stranger, runId)).rejects.toMatchObject({ code: "not_found" });
    await expect(revertRun(ctx, "not-a-uuid")).rejects.toMatchObject({ code: "not_found" });

    await addExchange(database, userId, "t4", ["m9", "user", "I play chess"]);
    const failed = await runExtraction({ ctx, model: rawManager("no json at all"), modelId: "mock" }, job("t4", false));
    expect(failed.status).toBe("failed");
    if (failed.status !== "failed") return;
    await expect(revertRun(ctx, failed.runId)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("failed"),
    });
  });

  it("a superseding update is undone too: the new memory is deleted and the old one open again", async () => {
    const { userId, ctx } = await setup();
    const toronto = await createMemory(ctx, { content: "User lives in Toronto" });
    await addExchange(ctx.database, userId, "t5", ["m5", "user", "I moved to Vancouver last month."]);
    const outcome = await runExtraction(
      {
        ctx,
        model: scriptedManager([
          {
            op: "update",
            id: toronto.id,
            expectedVersion: 1,
            content: { content: "User lives in Vancouver" },
            messageId: "m5",
            quote: "I moved to Vancouver last month",
            reason: "moved",
            validFrom: "2025-12-01",
          },
        ]),
        modelId: "mock",
      },
      job("t5"),
    );
    expect(outcome.status).toBe("succeeded");
    if (outcome.status !== "succeeded") return;
    const [applied] = outcome.applied;
    expect(applied).toMatchObject({
      op: "update",
      memoryId: toronto.id,
      supersededBy: { text: "User lives in Vancouver" },
    });
    const vancouver = applied!.supersededBy!.memoryId;
    expect((await getMemory(ctx, toronto.id)).validTo?.toISOString()).toBe("2025-12-01T00:00:00.000Z");
    expect((await getMemory(ctx, vancouver)).validFrom?.toISOString()).toBe("2025-12-01T00:00:00.000Z");

    const reverted = await revertRun(ctx, outcome.runId);
    expect(reverted.reverted.sort()).toEqual([toronto.id, vancouver].sort());
    expect(await getMemory(ctx, vancouver)).toMatchObject({ status: "deleted" });
    expect(await getMemory(ctx, toronto.id)).toMatchObject({
      status: "active",
      validTo: null,
      text: "User lives in Toronto",
    });
  });

  it("the offline manager supersedes where the user lives when they say they moved last month", async () => {
    const { userId, ctx } = await setup();
    const toronto = await createMemory(ctx, { content: "User lives in Toronto" });
    await addExchange(
      ctx.database,
      userId,
      "t6",
      ["m6", "user", "Actually I moved to Vancouver last month."],
      ["a6", "assistant", "Noted."],
    );
    const outcome = await runExtraction({ ctx, model: new OfflineLanguageModel(), modelId: "offline" }, job("t6"));
    expect(outcome).toMatchObject({ status: "succeeded" });
    const closed = await getMemory(ctx, toronto.id);
    expect(closed.text).toBe("User lives in Toronto");
    expect(closed.validTo).toBeInstanceOf(Date);
    const current = (await listMemories(ctx)).memories.find((memory) => memory.text === "User lives in Vancouver");
    expect(current?.validFrom?.toISOString()).toBe(closed.validTo?.toISOString());
    // The first day of the month before the message was sent.
    expect(current?.validFrom?.getUTCDate()).toBe(1);
  });
});

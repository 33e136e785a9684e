import { expect, it } from "vitest";
import { deleteThread } from "@/lib/chat/threads";
import { exportNamespace } from "@/lib/console/export";
import { importNamespace } from "@/lib/console/import";
import type { MemoryContext } from "@/lib/memory/core";
import { runOptimizer } from "@/lib/memory/optimizer";
import { changeInstructions, createFeedback, instructionHistory, listFeedback } from "@/lib/memory/procedural";
import { updateSettings } from "@/lib/memory/review";
import { createMemory, purgeMemory } from "@/lib/memory/store";
import { addExchange, rawManager } from "../extraction/support";
import { contextFor, createUser, dumpAllRows } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

async function exported(ctx: MemoryContext) {
  let text = "";
  for await (const chunk of exportNamespace(ctx)) text += chunk;
  return text;
}

describeEachDatabase("procedural memory in export, import and purge", (use) => {
  it("exports the instructions with every version and the feedback; an import brings the instructions back", async () => {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId);
    await addExchange(use(), userId, "t1", ["u1", "user", "Hi"], ["a1", "assistant", "Hello there"]);
    await createFeedback(ctx, { messageId: "a1", rating: "down", comment: "use metric units" });
    for (const text of ["Answer in English.", "Answer in English.\nUse metric units."]) {
      await changeInstructions(ctx, { text, changedBy: { type: "user", id: userId }, reason: "edited by hand" });
    }
    const file = await exported(ctx);
    const parsed = JSON.parse(file);
    expect(parsed.instructions).toMatchObject({
      current: { version: 2, text: "Answer in English.\nUse metric units." },
      versions: [{ version: 2 }, { version: 1 }],
    });
    expect(parsed.feedback).toMatchObject([{ messageId: "a1", rating: "down", comment: "use metric units" }]);

    const target = contextFor(use(), await createUser(use()));
    expect(await importNamespace(target, { file, apply: false })).toMatchObject({
      ok: true,
      summary: { instructions: "replace" },
    });
    await importNamespace(target, { file, apply: true });
    expect(await instructionHistory(target)).toMatchObject([
      {
        version: 1,
        text: "Answer in English.\nUse metric units.",
        changedBy: { type: "user" },
        reason: "imported from an export (was version 2)",
      },
    ]);
    expect(await importNamespace(target, { file, apply: true })).toMatchObject({
      summary: { instructions: "unchanged" },
    });
    expect(await instructionHistory(target)).toHaveLength(1);
  });

  it("pages the feedback by keyset, and the export carries every page", async () => {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId);
    const answers = ["a1", "a2", "a3", "a4", "a5"];
    for (const [index, id] of answers.entries()) {
      await addExchange(use(), userId, `t${index}`, [`u${index}`, "user", "Hi"], [id, "assistant", "Hello"]);
      await createFeedback(ctx, { messageId: id, rating: "up" });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listFeedback(ctx, { limit: 2, cursor });
      expect(page.feedback.length).toBeLessThanOrEqual(2);
      seen.push(...page.feedback.map((item) => item.messageId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(answers);
    expect(JSON.parse(await exported(ctx)).feedback.map((item: { messageId: string }) => item.messageId)).toEqual(
      answers,
    );
  });

  it("deleting a chat deletes the feedback on its answers, comments included", async () => {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId);
    await addExchange(use(), userId, "t1", ["u1", "user", "Hi"], ["a1", "assistant", "Hello"]);
    await addExchange(use(), userId, "t2", ["u2", "user", "Hi"], ["a2", "assistant", "Hello"]);
    await createFeedback(ctx, { messageId: "a1", rating: "down", comment: "my private complaint" });
    await createFeedback(ctx, { messageId: "a2", rating: "up" });
    await deleteThread(ctx, "t1");
    expect((await listFeedback(ctx)).feedback.map((item) => item.messageId)).toEqual(["a2"]);
    expect((await dumpAllRows(use())).toLowerCase()).not.toContain("my private complaint");
  });

  it("erases a purged memory's text from the optimizer's run records", async () => {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId);
    await updateSettings(ctx, { review: "off" });
    const fact = await createMemory(ctx, { content: "User's locker code is 7319-QUARTZ" });
    await addExchange(use(), userId, "t1", ["u1", "user", "Locker?"], ["a1", "assistant", "It is 7319-QUARTZ."]);
    await createFeedback(ctx, { messageId: "a1", rating: "down", comment: "too long" });
    const model = rawManager(
      JSON.stringify({
        change: true,
        text: "Always say: User's locker code is 7319-QUARTZ",
        reason: "r",
        feedbackIds: ["00000000-0000-4000-8000-000000000000"],
        droppedLines: [],
      }),
    );
    const outcome = await runOptimizer(
      { ctx: { ...ctx, actor: { type: "extractor", id: "mock" } }, model: model as never, modelId: "mock" },
      { jobId: "j", finalAttempt: true },
    );
    expect(outcome).toMatchObject({ outcome: "rejected" });
    expect((await dumpAllRows(use())).toLowerCase()).toContain("user's locker code is 7319-quartz");
    await purgeMemory(ctx, fact.id);
    expect((await dumpAllRows(use())).toLowerCase()).not.toContain("user's locker code is 7319-quartz");
  });
});

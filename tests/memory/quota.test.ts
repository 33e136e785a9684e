import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import { QuotaExceededError } from "@/lib/memory/core";
import { runExtraction } from "@/lib/memory/extraction";
import { createMemory, deleteMemory } from "@/lib/memory/store";
import { addExchange, scriptedManager } from "../extraction/support";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser } from "./support";

const callOptions = { toolCallId: "call-1", messages: [], context: {} };

describeEachDatabase("memory quota in the core", (use) => {
  const active = async (userId: string) =>
    (
      await use().unbound.rows<{ n: number }>(
        sql`select count(*)::int as n from memories where user_id = ${userId} and status = 'active'`,
      )
    )[0]?.n;

  it("an extraction run at the quota applies what fits and rejects the rest with the reason, writing none of it", async () => {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId, { memoryQuota: 1 });
    await addExchange(use(), userId, "t1", ["m1", "user", "I live in Lisbon and I play the cello."]);
    const insert = (content: string, quote: string) => ({
      op: "insert" as const,
      kind: "memory",
      content: { content },
      messageId: "m1",
      quote,
    });
    const model = scriptedManager([
      insert("User lives in Lisbon", "I live in Lisbon"),
      insert("User plays the cello", "I play the cello"),
    ]);
    const outcome = await runExtraction(
      { ctx, model, modelId: "mock" },
      { threadId: "t1", jobId: "quota-job", finalAttempt: true },
    );
    expect(outcome.status).toBe("succeeded");
    if (outcome.status !== "succeeded") return;
    expect(outcome.applied.map((op) => op.text)).toEqual(["User lives in Lisbon"]);
    expect(outcome.rejected.map((entry) => entry.reason)).toEqual([
      expect.stringMatching(/^Memory quota reached: an account may hold 1 active memory;/),
    ]);
    expect(await active(userId)).toBe(1);
  });

  it("the chat's memory tool answers the model with the quota's reason; the profile can still be rewritten", async () => {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId, { memoryQuota: 2 });
    await createMemory(ctx, { kind: "profile", content: { name: "Priya" } });
    const deleted = await createMemory(ctx, { content: "User likes rain" });
    await deleteMemory(ctx, deleted.id);
    await createMemory(ctx, { content: "User likes tea" });
    const tools = createMemoryTools(ctx);
    await expect(
      tools.manage_memory.execute?.({ action: "create", content: "User likes jazz" }, callOptions),
    ).rejects.toThrow(/^Memory quota reached: an account may hold 2 active memories; this one holds 2/);
    await expect(createMemory(ctx, { kind: "profile", content: { name: "Priya S." } })).resolves.toMatchObject({
      text: "name: Priya S.",
    });
    await expect(createMemory(ctx, { content: "User likes jazz" })).rejects.toBeInstanceOf(QuotaExceededError);
    expect(await active(userId)).toBe(2);
  });
});

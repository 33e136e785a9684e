import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { deleteThread } from "@/lib/chat/threads";
import type { Database } from "@/lib/db/client";
import { runExtraction } from "@/lib/memory/extraction";
import { listProposals, updateSettings } from "@/lib/memory/review";
import { createRule, getMemory, listMemories, memoryHistory, purgeMemory } from "@/lib/memory/store";
import { createWebhook } from "@/lib/memory/webhooks";
import { addExchange, scriptedManager } from "../extraction/support";
import { contextFor, createUser, dumpAllRows } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

/** Every row of the user's extraction runs, as text. */
async function runRecords(database: Database, userId: string): Promise<string> {
  const rows = await database.unbound.rows<{ row: string }>(
    sql`select t::text as row from extraction_runs t where user_id = ${userId}`,
  );
  return rows
    .map((row) => row.row)
    .join("\n")
    .toLowerCase();
}

describeEachDatabase("words a user erased stay erased in the records", (use) => {
  it("records an op a rule blocks without its words: the rule's id and reason only", async () => {
    const database = use();
    const userId = await createUser(database);
    const ctx = contextFor(database, userId);
    const rule = await createRule(ctx, { text: "Never remember my health", terms: ["health"] });
    await addExchange(database, userId, "r1", ["r1-u", "user", "My health worry is a heart murmur"]);
    await runExtraction(
      {
        ctx,
        model: scriptedManager([
          {
            op: "insert",
            kind: "memory",
            content: { content: "User's health worry: a heart murmur" },
            messageId: "r1-u",
            quote: "My health worry is a heart murmur",
          },
        ]),
        modelId: "mock",
      },
      { threadId: "r1", jobId: "r1-job", finalAttempt: true },
    );
    const [run] = await database.unbound.rows<{ ops_proposed: unknown[]; ops_rejected: unknown[] }>(
      sql`select ops_proposed, ops_rejected from extraction_runs where user_id = ${userId}`,
    );
    expect(run?.ops_proposed).toEqual([{ op: "insert", messageId: "r1-u", ruleId: rule.id }]);
    expect(run?.ops_rejected).toEqual([
      {
        op: { op: "insert", messageId: "r1-u", ruleId: rule.id },
        reason: expect.stringContaining("Never remember my health"),
      },
    ]);
    expect(await runRecords(database, userId)).not.toContain("murmur");
  });

  it("purging a fact of a few letters erases it from the run that wrote it", async () => {
    const database = use();
    const userId = await createUser(database);
    const ctx = contextFor(database, userId);
    await addExchange(database, userId, "s1", ["s1-u", "user", "I am Vegan"], ["s1-a", "assistant", "Noted."]);
    await runExtraction(
      {
        ctx,
        model: scriptedManager([
          { op: "insert", kind: "memory", content: { content: "Vegan" }, messageId: "s1-u", quote: "Vegan" },
        ]),
        modelId: "mock",
      },
      { threadId: "s1", jobId: "s1-job", finalAttempt: true },
    );
    const [memory] = (await listMemories(ctx, {})).memories;
    expect(memory?.text).toBe("Vegan");
    expect(await runRecords(database, userId)).toContain("vegan");

    await purgeMemory(ctx, memory!.id);
    expect(await runRecords(database, userId)).not.toContain("vegan");
  });

  it("deleting a chat erases its words from memories, versions, proposals, runs and webhook payloads", async () => {
    const database = use();
    const userId = await createUser(database);
    const ctx = contextFor(database, userId);
    await createWebhook(
      ctx,
      { url: "https://hooks.example.com/in", events: ["memory.created"] },
      { allowPrivate: false },
    );
    await addExchange(
      database,
      userId,
      "d1",
      ["d1-u", "user", "My sister Ines lives in Porto and I also play the cello"],
      ["d1-a", "assistant", "Noted."],
    );
    await addExchange(database, userId, "kept", ["kept-u", "user", "I collect stamps from Japan"]);
    const extract = (threadId: string, ...ops: Parameters<typeof scriptedManager>[0]) =>
      runExtraction(
        { ctx, model: scriptedManager(ops), modelId: "mock" },
        { threadId, jobId: `${threadId}-job-${Math.random()}`, finalAttempt: true },
      );
    await extract(
      "d1",
      {
        op: "insert",
        kind: "memory",
        content: { content: "User's sister Ines lives in Porto" },
        messageId: "d1-u",
        quote: "My sister Ines lives in Porto",
      },
      // Cited against a message that does not exist, so rejected: its quote names no message of the chat by id.
      {
        op: "insert",
        kind: "memory",
        content: { content: "User plays an instrument" },
        messageId: "no-such-message",
        quote: "Porto and I also play",
      },
    );
    await extract("kept", {
      op: "insert",
      kind: "memory",
      content: { content: "User collects Japanese stamps" },
      messageId: "kept-u",
      quote: "I collect stamps from Japan",
    });
    await updateSettings(ctx, { review: "all" });
    await addExchange(database, userId, "d1", ["d1-u2", "user", "And I practise the cello daily"]);
    await extract("d1", {
      op: "insert",
      kind: "memory",
      content: { content: "User plays the cello" },
      messageId: "d1-u2",
      quote: "I practise the cello daily",
    });
    expect((await listProposals(ctx, {})).proposals).toHaveLength(1);
    const before = (await dumpAllRows(database)).toLowerCase();
    expect(before).toContain("my sister ines lives in porto");
    expect(before).toContain("i practise the cello daily");
    expect(before).toContain("porto and i also play");

    await deleteThread(ctx, "d1");
    const after = (await dumpAllRows(database)).toLowerCase();
    expect(after).not.toContain("my sister ines lives in porto");
    expect(after).not.toContain("i practise the cello daily");
    expect(after).not.toContain("porto and i also play");
    // The memories stay, saying where they came from; another chat's words are untouched.
    const sister = (await listMemories(ctx, {})).memories.find((memory) => memory.text.includes("Ines"));
    expect(sister?.source).toEqual({
      type: "extraction",
      threadId: "d1",
      threadDeleted: true,
      runId: expect.any(String),
    });
    expect((await memoryHistory(ctx, sister!.id))[0]?.source).toMatchObject({ threadDeleted: true });
    expect((await listProposals(ctx, {})).proposals[0]).toMatchObject({ text: "User plays the cello" });
    const stamps = (await listMemories(ctx, {})).memories.find((memory) => memory.text.includes("stamps"));
    expect((await getMemory(ctx, stamps!.id)).source.quote).toBe("I collect stamps from Japan");
    expect(after).toContain("i collect stamps from japan");
  });
});

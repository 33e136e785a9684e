import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import { putItem } from "@/lib/langgraph/store";
import type { ManageMemoryInput } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { type ExtractionOp, parseExtractionPrompt, runExtraction } from "@/lib/memory/extraction";
import {
  type ApprovedMemory,
  approveProposal,
  listProposals,
  rejectProposal,
  updateSettings,
} from "@/lib/memory/review";
import { searchMemories } from "@/lib/memory/search";
import {
  createMemory,
  createRule,
  deleteMemory,
  getMemory,
  listMemories,
  listRules,
  memoryHistory,
  purgeMemory,
  updateMemory,
} from "@/lib/memory/store";
import { addExchange, scriptedManager } from "../extraction/support";
import { contextFor, createUser, dumpAllRows } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

const callOptions = { toolCallId: "call-1", messages: [], context: {} };
let jobs = 0;
const job = (threadId: string) => ({ threadId, jobId: `review-job-${++jobs}`, finalAttempt: true });

describeEachDatabase("review and rules in the core", (use) => {
  async function setup() {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId);
    return { userId, ctx, agent: { ...ctx, actor: { type: "agent" as const, id: "offline" } } };
  }
  const extract = (ctx: MemoryContext, threadId: string, ...answers: ExtractionOp[][]) => {
    const model = scriptedManager(...answers);
    return {
      model,
      run: () =>
        runExtraction(
          { ctx: { ...ctx, actor: { type: "extractor", id: "scripted" } }, model, modelId: "scripted" },
          job(threadId),
        ),
    };
  };

  it("defaults to deletes: a chat turn's second delete is a proposal, the first applies", async () => {
    const { agent } = await setup();
    const a = await createMemory(agent, { content: "User likes jazz" });
    const b = await createMemory(agent, { content: "User likes opera" });
    const tools = createMemoryTools({ ...agent, provenance: { threadId: "t", messageId: "m" } });
    const manage = (input: ManageMemoryInput) => tools.manage_memory.execute?.(input, callOptions);
    expect(await manage({ action: "delete", id: a.id })).toMatchObject({ action: "deleted" });
    const held = await manage({ action: "delete", id: b.id });
    expect(held).toMatchObject({ action: "proposed", id: b.id, note: expect.stringMatching(/review/) });
    expect((await getMemory(agent, b.id)).status).toBe("active");
    const { proposals } = await listProposals(agent, { status: "pending" });
    expect(proposals).toEqual([
      expect.objectContaining({ op: "delete", memoryId: b.id, expectedVersion: 1, text: "User likes opera" }),
    ]);
    expect(proposals[0]).toMatchObject({ threadId: "t", messageId: "m", actor: { type: "agent", id: "offline" } });
  });

  it("with review off, a turn's deletes all apply", async () => {
    const { ctx, agent } = await setup();
    await updateSettings(ctx, { review: "off" });
    const ids = [
      (await createMemory(agent, { content: "User likes tea" })).id,
      (await createMemory(agent, { content: "User likes cake" })).id,
    ];
    const tools = createMemoryTools(agent);
    for (const id of ids) {
      expect(await tools.manage_memory.execute?.({ action: "delete", id }, callOptions)).toMatchObject({
        action: "deleted",
      });
    }
    expect((await listProposals(ctx)).proposals).toEqual([]);
  });

  it("with review all, every op of a run is a proposal that is never recalled or searched; approving writes it with its provenance", async () => {
    const { userId, ctx } = await setup();
    await updateSettings(ctx, { review: "all" });
    await addExchange(
      use(),
      userId,
      "t-all",
      ["m1", "user", "I play the theremin every Sunday"],
      ["a1", "assistant", "Nice"],
    );
    const { run } = extract(ctx, "t-all", [
      {
        op: "insert",
        kind: "memory",
        content: "User plays the theremin",
        messageId: "m1",
        quote: "I play the theremin",
      },
    ]);
    const outcome = await run();
    expect(outcome.status).toBe("succeeded");
    if (outcome.status !== "succeeded") return;
    expect(outcome.applied).toEqual([]);
    expect(outcome.proposed).toHaveLength(1);
    expect(outcome.rejected[0]?.reason).toMatch(/^held for the user's review as proposal .* \(review mode all/);
    expect((await listMemories(ctx)).memories).toEqual([]);
    expect(await searchMemories(ctx, { query: "theremin" })).toEqual([]);

    const id = outcome.proposed[0] as string;
    const { proposal, memory } = (await approveProposal(ctx, id, {
      content: "User plays the theremin on Sundays",
    })) as ApprovedMemory;
    expect(proposal).toMatchObject({ status: "approved", memoryId: memory.id, decidedAt: expect.any(Date) });
    expect(memory).toMatchObject({
      text: "User plays the theremin on Sundays",
      source: {
        type: "extraction",
        threadId: "t-all",
        messageId: "m1",
        quote: "I play the theremin",
        runId: outcome.runId,
      },
      actor: { type: "user", id: userId },
    });
    const [created] = await memoryHistory(ctx, memory.id);
    expect(created?.reason).toMatch(/^approved as edited in review/);
    expect((await searchMemories(ctx, { query: "theremin" })).map((hit) => hit.memory.id)).toEqual([memory.id]);
    await expect(approveProposal(ctx, id)).rejects.toMatchObject({ code: "conflict" });
  });

  it("with review all, the offline manager's retirement of a rival fact waits for review (what e2e/review.spec.ts drives)", async () => {
    const { userId, ctx } = await setup();
    await updateSettings(ctx, { review: "all" });
    await createMemory(ctx, { content: "User lives in Lisbon" });
    const madrid = await createMemory(ctx, { content: "User lives in Madrid" });
    await addExchange(use(), userId, "t-offline", ["m1", "user", "I live in Lisbon."], ["a1", "assistant", "I know."]);
    const extractor = { ...ctx, actor: { type: "extractor" as const, id: "offline" } };
    const outcome = await runExtraction(
      { ctx: extractor, model: new OfflineLanguageModel(), modelId: "offline" },
      job("t-offline"),
    );
    if (outcome.status !== "succeeded") throw new Error("run failed");
    expect(outcome.applied).toEqual([]);
    expect(outcome.proposed).toHaveLength(1);
    expect((await listProposals(ctx, { status: "pending" })).proposals).toEqual([
      expect.objectContaining({ op: "delete", memoryId: madrid.id, quote: "I live in Lisbon", threadId: "t-offline" }),
    ]);
    expect((await getMemory(ctx, madrid.id)).status).toBe("active");
  });

  it("a rejected insert suppresses the same fact in later runs, saying so", async () => {
    const { userId, ctx } = await setup();
    await updateSettings(ctx, { review: "all" });
    await addExchange(use(), userId, "t-rej", ["m1", "user", "I am allergic to cats"], ["a1", "assistant", "Noted"]);
    const insert: ExtractionOp = {
      op: "insert",
      kind: "memory",
      content: "User is allergic to cats",
      messageId: "m1",
      quote: "allergic to cats",
    };
    const first = await extract(ctx, "t-rej", [insert]).run();
    if (first.status !== "succeeded") throw new Error("run failed");
    await rejectProposal(ctx, first.proposed[0] as string, { reason: "not true" });
    await updateSettings(ctx, { review: "off" });
    await addExchange(
      use(),
      userId,
      "t-rej",
      ["m2", "user", "Remember: I am allergic to cats"],
      ["a2", "assistant", "Ok"],
    );
    const second = await extract(ctx, "t-rej", [
      { ...insert, content: "The user is allergic to cats.", messageId: "m2" },
    ]).run();
    if (second.status !== "succeeded") throw new Error("run failed");
    expect(second.applied).toEqual([]);
    expect(second.rejected[0]?.reason).toMatch(/^rejected by the user in review: restates a rejected proposal/);
  });

  it("approving after the memory was edited or deleted is a conflict carrying the memory as it stands", async () => {
    const { ctx, agent } = await setup();
    const edited = await createMemory(ctx, { content: "User lives in Porto" });
    const removed = await createMemory(ctx, { content: "User owns a red bike" });
    const tools = createMemoryTools(agent);
    await tools.manage_memory.execute?.(
      { action: "delete", id: (await createMemory(ctx, { content: "x1 memory" })).id },
      callOptions,
    );
    const heldEdit = await tools.manage_memory.execute?.({ action: "delete", id: edited.id }, callOptions);
    const heldRemove = await tools.manage_memory.execute?.({ action: "delete", id: removed.id }, callOptions);
    await updateMemory(ctx, edited.id, { content: "User lives in Lisbon" });
    await deleteMemory(ctx, removed.id);
    for (const [held, memoryId, version] of [
      [heldEdit, edited.id, 2],
      [heldRemove, removed.id, 2],
    ] as const) {
      const proposalId = (held as { proposalId: string }).proposalId;
      const error = await approveProposal(ctx, proposalId).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "conflict", extras: { body: { memory: { id: memoryId, version } } } });
    }
    expect((await getMemory(ctx, edited.id)).text).toBe("User lives in Lisbon");
    expect((await listProposals(ctx, { status: "pending" })).proposals).toHaveLength(2);
  });

  it("a write naming a rule's term is not made: the tool result and the run name the rule; the manager is shown the rules", async () => {
    const { userId, ctx, agent } = await setup();
    const rule = await createRule(ctx, {
      text: "Never remember anything about my health",
      terms: ["health", "allergy"],
    });
    expect(await listRules(ctx)).toEqual([rule]);
    const tools = createMemoryTools(agent);
    await expect(
      tools.manage_memory.execute?.({ action: "create", content: "User has a peanut allergy" }, callOptions),
    ).rejects.toThrow(/rule "Never remember anything about my health" \(it mentions "allergy"\)/);
    // The person's own hand is not bound by the rule.
    await expect(createMemory(ctx, { content: "My health plan renews in May" })).resolves.toMatchObject({ version: 1 });
    // An app with a key is.
    await expect(
      createMemory({ ...ctx, actor: { type: "api", id: "key-1" } }, { content: "User's health is fine" }),
    ).rejects.toMatchObject({ code: "unprocessable" });
    // So is the LangGraph store (and MCP): they write through the same store.
    await expect(
      putItem(
        { ...ctx, actor: { type: "api", id: "key-1" } },
        { namespace: ["prefs"], key: "h", value: { content: "Sees a doctor about her allergy" } },
      ),
    ).rejects.toThrow(/breaks the user's rule/);

    await addExchange(use(), userId, "t-rule", ["m1", "user", "I have allergies to pollen"], ["a1", "assistant", "Ok"]);
    const { model, run } = extract(ctx, "t-rule", [
      {
        op: "insert",
        kind: "memory",
        content: "User has allergies to pollen",
        messageId: "m1",
        quote: "allergies to pollen",
      },
    ]);
    const outcome = await run();
    if (outcome.status !== "succeeded") throw new Error("run failed");
    expect(outcome.applied).toEqual([]);
    expect(outcome.rejected[0]?.reason).toMatch(/breaks the user's rule "Never remember anything about my health"/);
    const prompt = model.doGenerateCalls[0]?.prompt.find((message) => message.role === "user");
    const text = prompt && Array.isArray(prompt.content) ? (prompt.content[0] as { text: string }).text : "";
    expect(parseExtractionPrompt(text)?.rules).toEqual([
      { text: "Never remember anything about my health", terms: ["health", "allergy"] },
    ]);
  });

  it("matches terms on whole words: 'health' is not in 'healthy'", async () => {
    const { ctx, agent } = await setup();
    await createRule(ctx, { text: "Nothing about health", terms: ["health"] });
    await expect(createMemory(agent, { content: "User eats healthy food" })).resolves.toMatchObject({ version: 1 });
  });

  it("purging a memory erases the proposals carrying its text", async () => {
    const { ctx, agent } = await setup();
    const secret = await createMemory(ctx, { content: "User's diary code is zebra-4471" });
    const tools = createMemoryTools(agent);
    await tools.manage_memory.execute?.(
      { action: "delete", id: (await createMemory(ctx, { content: "y2 memory" })).id },
      callOptions,
    );
    await tools.manage_memory.execute?.({ action: "delete", id: secret.id }, callOptions);
    await purgeMemory(ctx, secret.id);
    expect(await dumpAllRows(use())).not.toContain("zebra-4471");
    const [row] = await use().unbound.rows<{ status: string; content_hash: string | null }>(
      sql`select status, content_hash from memory_proposals where memory_id = ${secret.id}::uuid`,
    );
    expect(row).toMatchObject({ status: "rejected", content_hash: expect.any(String) });
  });
});

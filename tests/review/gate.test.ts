import { expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { createMemoryTools, memoryToolHandlers } from "@/lib/chat/memory-tools";
import { startChatTurn } from "@/lib/chat/turn";
import type { ManageMemoryInput, ManageMemoryOutput } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { type ExtractionOp, runExtraction } from "@/lib/memory/extraction";
import {
  type ApprovedMemory,
  approveProposal,
  listProposals,
  rejectProposal,
  updateSettings,
} from "@/lib/memory/review";
import { createMemory, deleteMemory, getMemory, listMemories, memoryHistory } from "@/lib/memory/store";
import { finalMessage } from "../chat/support";
import { addExchange, scriptedManager } from "../extraction/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

// The gate (lib/memory/review/gate.ts): the chat's tools and the background manager meet the same decision for the
// same input; people write directly.

const callOptions = { toolCallId: "call-1", messages: [], context: {} };
let jobs = 0;
const NOV_12 = new Date("2026-11-12T09:30:00Z");

describeEachDatabase("the gate every model write passes", (use) => {
  async function setup(review?: "off" | "deletes" | "all") {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId);
    if (review) await updateSettings(ctx, { review });
    return { userId, ctx };
  }

  /** One chat turn's tools, writing as the chat model with the turn's question as provenance. */
  function chatTurn(ctx: MemoryContext, messageId: string) {
    const agent: MemoryContext = {
      ...ctx,
      actor: { type: "agent", id: "scripted-chat" },
      provenance: { source: "chat", threadId: "chat-1", messageId, quote: "the user's words" },
    };
    const tools = createMemoryTools(agent, { agentId: "scripted-chat" });
    return (input: ManageMemoryInput) =>
      tools.manage_memory.execute?.(input, callOptions) as Promise<ManageMemoryOutput>;
  }

  /** One background run over a new exchange, answering with `ops`. */
  async function backgroundRun(ctx: MemoryContext, userId: string, said: string, ops: ExtractionOp[]) {
    const threadId = `bg-${++jobs}`;
    await addExchange(use(), userId, threadId, [`${threadId}-m1`, "user", said], [`${threadId}-a1`, "assistant", "Ok"]);
    const outcome = await runExtraction(
      {
        ctx: { ...ctx, actor: { type: "extractor", id: "scripted" } },
        model: scriptedManager(ops.map((op) => ({ ...op, messageId: `${threadId}-m1` }))),
        modelId: "scripted",
      },
      { threadId, jobId: `gate-job-${jobs}`, finalAttempt: true },
    );
    if (outcome.status !== "succeeded") throw new Error(`run ${outcome.status}: ${outcome.reason}`);
    return outcome;
  }

  it("with review all, the chat model's save, update and delete are proposals and nothing goes live", async () => {
    const { ctx } = await setup("all");
    const kept = await createMemory(ctx, { content: "User drinks green tea" });
    const manage = chatTurn(ctx, "q-1");

    const saved = await manage({ action: "create", content: "User plays the cello" });
    expect(saved).toMatchObject({ action: "proposed", op: "create", text: "User plays the cello" });
    if (saved.action !== "proposed") return;
    expect(saved.note).toMatch(/Saved for the user's review/);
    expect(await manage({ action: "update", id: kept.id, content: "User drinks black tea" })).toMatchObject({
      action: "proposed",
      op: "update",
      id: kept.id,
    });
    expect(await manage({ action: "delete", id: kept.id })).toMatchObject({ action: "proposed", op: "delete" });

    expect((await listMemories(ctx)).memories.map((memory) => [memory.text, memory.version])).toEqual([
      ["User drinks green tea", 1],
    ]);
    const { proposals } = await listProposals(ctx, { status: "pending" });
    expect(proposals.map((proposal) => proposal.op).sort()).toEqual(["delete", "insert", "update"]);
    expect(proposals.every((proposal) => proposal.messageId === "q-1" && proposal.threadId === "chat-1")).toBe(true);
    // Saying it again in the same or a later turn does not propose it twice.
    expect(await manage({ action: "create", content: "user plays the cello." })).toMatchObject({
      action: "proposed",
      proposalId: saved.proposalId,
    });
  });

  it("the chat's tools and the background manager meet the same decision for the same fact", async () => {
    const { userId, ctx } = await setup("all");
    const manage = chatTurn(ctx, "q-1");
    const fromChat = await manage({ action: "create", content: "User keeps bees" });
    expect(fromChat.action).toBe("proposed");
    const bees = { op: "insert", kind: "memory", content: "User keeps bees", messageId: "", quote: "I keep bees" };
    const run = await backgroundRun(ctx, userId, "I keep bees", [bees as ExtractionOp]);
    expect(run.applied).toEqual([]);
    expect(run.proposed).toEqual([]);
    expect(run.rejected.map((entry) => entry.reason)).toEqual([
      `already awaiting the user's review as proposal ${fromChat.action === "proposed" ? fromChat.proposalId : ""}`,
    ]);

    const other = await setup("all");
    const first = await backgroundRun(other.ctx, other.userId, "I keep bees", [bees as ExtractionOp]);
    expect(first.proposed).toHaveLength(1);
    expect(await chatTurn(other.ctx, "q-2")({ action: "create", content: "User keeps bees" })).toMatchObject({
      action: "proposed",
      proposalId: first.proposed[0],
    });
  });

  it("a fact the user deleted, saved again by the chat model, is a proposal saying when; approving makes it live from the new message", async () => {
    const { userId, ctx } = await setup();
    const lisbon = await createMemory(ctx, { content: "User lives in Lisbon" });
    await deleteMemory({ ...ctx, clock: () => NOV_12 }, lisbon.id);

    const saved = await chatTurn(ctx, "q-new")({ action: "create", content: "The user lives in Lisbon" });
    expect(saved).toMatchObject({ action: "proposed", op: "create", text: "The user lives in Lisbon" });
    if (saved.action !== "proposed") return;
    expect(saved.note).toMatch(/^You deleted this on 12 Nov 2026: remember it again\?/);
    expect((await listMemories(ctx)).memories).toEqual([]);

    // The background manager reading the same words drops the fact and says why in the run.
    const run = await backgroundRun(ctx, userId, "By the way, I live in Lisbon", [
      { op: "insert", kind: "memory", content: "User lives in Lisbon", messageId: "", quote: "I live in Lisbon" },
    ]);
    expect(run.rejected.map((entry) => entry.reason)).toEqual([
      expect.stringMatching(/^(deleted by the user: restates a deleted memory|already awaiting the user's review)/),
    ]);

    const { proposal, memory } = (await approveProposal(ctx, saved.proposalId)) as ApprovedMemory;
    expect(proposal.reason).toBe("You deleted this on 12 Nov 2026: remember it again?");
    expect(memory).toMatchObject({
      status: "active",
      text: "The user lives in Lisbon",
      source: { type: "chat", threadId: "chat-1", messageId: "q-new" },
    });
    expect(memory.id).not.toBe(lisbon.id);
  });

  it("a fact the chat model was asked to forget, or the user rejected, is proposed again with what the user asked", async () => {
    const { ctx } = await setup();
    const forget = chatTurn({ ...ctx, clock: () => NOV_12 }, "q-forget");
    const pottery = await createMemory(ctx, { content: "User does pottery on Fridays" });
    expect(await forget({ action: "delete", id: pottery.id })).toMatchObject({ action: "deleted" });
    const again = await chatTurn(ctx, "q-later")({ action: "create", content: "User does pottery on Fridays" });
    expect(again).toMatchObject({
      action: "proposed",
      note: expect.stringMatching(/^You asked me to forget this on 12 Nov 2026 \("the user's words"\): remember/),
    });

    await updateSettings(ctx, { review: "all" });
    const held = await chatTurn(ctx, "q-1")({ action: "create", content: "User collects stamps" });
    if (held.action !== "proposed") throw new Error("expected a proposal");
    await rejectProposal({ ...ctx, clock: () => NOV_12 }, held.proposalId, { reason: "not true" });
    await updateSettings(ctx, { review: "off" });
    expect(await chatTurn(ctx, "q-2")({ action: "create", content: "User collects stamps" })).toMatchObject({
      action: "proposed",
      note: expect.stringMatching(/^You rejected this in review on 12 Nov 2026 \("not true"\): remember it again\?/),
    });
  });

  it("checks the chat model's update against deleted facts like its saves", async () => {
    const { ctx } = await setup("off");
    const city = await createMemory(ctx, { content: "User lives in Madrid" });
    const old = await createMemory(ctx, { content: "User lives in Lisbon" });
    await deleteMemory(ctx, old.id);
    const changed = await chatTurn(ctx, "q-1")({ action: "update", id: city.id, content: "User lives in Lisbon" });
    expect(changed).toMatchObject({ action: "proposed", op: "update", id: city.id });
    expect((await getMemory(ctx, city.id)).text).toBe("User lives in Madrid");
  });

  it("a held op keeps its dates: approving a superseding update closes the old fact, an insert keeps validFrom and validTo", async () => {
    const { userId, ctx } = await setup("all");
    const madrid = await createMemory(ctx, { content: "User lives in Madrid", validFrom: "2020-01-01" });
    const moved = await chatTurn(
      ctx,
      "q-1",
    )({
      action: "update",
      id: madrid.id,
      content: "User lives in Valencia",
      validFrom: "2026-10-01",
    });
    expect(moved).toMatchObject({ action: "proposed", op: "update", validFrom: "2026-10-01T00:00:00.000Z" });
    if (moved.action !== "proposed") return;
    const { memory: valencia } = (await approveProposal(ctx, moved.proposalId)) as ApprovedMemory;
    expect(valencia).toMatchObject({ text: "User lives in Valencia", validFrom: new Date("2026-10-01") });
    expect(await getMemory(ctx, madrid.id)).toMatchObject({
      text: "User lives in Madrid",
      status: "active",
      validFrom: new Date("2020-01-01"),
      validTo: new Date("2026-10-01"),
    });
    expect((await memoryHistory(ctx, madrid.id)).at(-1)?.reason).toMatch(/^superseded by memory/);

    const run = await backgroundRun(ctx, userId, "I studied in Bologna from 2010 to 2014", [
      {
        op: "insert",
        kind: "memory",
        content: "User studied in Bologna",
        messageId: "",
        quote: "I studied in Bologna",
        validFrom: "2010-09-01",
        validTo: "2014-07-01",
      },
    ]);
    const { memory: bologna } = (await approveProposal(ctx, run.proposed[0] as string)) as ApprovedMemory;
    expect(bologna).toMatchObject({ validFrom: new Date("2010-09-01"), validTo: new Date("2014-07-01") });
  });

  it("an app with a key writes directly through the same tool: review all and a deleted fact do not hold it", async () => {
    const { ctx } = await setup("all");
    const old = await createMemory(ctx, { content: "User lives in Lisbon" });
    await deleteMemory(ctx, old.id);
    const app: MemoryContext = { ...ctx, actor: { type: "api", id: "key-1" } };
    const manage = (input: ManageMemoryInput) =>
      memoryToolHandlers(app).manage_memory.execute(input) as Promise<ManageMemoryOutput>;
    expect(await manage({ action: "create", content: "User lives in Lisbon" })).toMatchObject({ action: "created" });
    expect(await manage({ action: "create", content: "User plays the cello" })).toMatchObject({ action: "created" });
    expect((await listProposals(ctx, { status: "pending" })).proposals).toEqual([]);
  });

  it("in a chat with the offline model: a restated deleted fact is proposed, the answer says when it was deleted", async () => {
    const { ctx } = await setup();
    const lisbon = await createMemory(ctx, { content: "User lives in Lisbon" });
    await deleteMemory({ ...ctx, clock: () => NOV_12 }, lisbon.id);
    const turn = await startChatTurn(
      { memory: ctx, model: new OfflineLanguageModel(), modelId: "offline", contextTokens: 8_000 },
      {
        id: "new-chat",
        trigger: "submit-message",
        message: { id: "q-lisbon", role: "user", parts: [{ type: "text", text: "By the way, I live in Lisbon." }] },
      },
    );
    const answer = await finalMessage(turn.response);
    const said = answer.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
    expect(said).toMatch(/You deleted this on 12 Nov 2026: remember it again\?/);
    expect((await listMemories(ctx)).memories).toEqual([]);
    const [proposal] = (await listProposals(ctx, { status: "pending" })).proposals;
    expect(proposal).toMatchObject({ op: "insert", threadId: "new-chat", messageId: "q-lisbon" });
    const { memory } = (await approveProposal(ctx, proposal!.id)) as ApprovedMemory;
    expect(memory.source).toMatchObject({ type: "chat", threadId: "new-chat", messageId: "q-lisbon" });
  });
});

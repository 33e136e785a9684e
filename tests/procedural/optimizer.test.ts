import { MockLanguageModelV4 } from "ai/test";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { ruleFrom } from "@/lib/ai/offline/instructions";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { followPreferences, preferencesIn } from "@/lib/ai/offline/preferences";
import { buildInstructions } from "@/lib/chat/instructions";
import { startChatTurn } from "@/lib/chat/turn";
import { answerFeedback, modelUsage, optimizerRuns } from "@/lib/db/schema";
import type { MemoryContext } from "@/lib/memory/core";
import { runOptimizer } from "@/lib/memory/optimizer";
import {
  changeInstructions,
  createFeedback,
  currentInstructions,
  instructionHistory,
  listFeedback,
} from "@/lib/memory/procedural";
import { approveProposal, listProposals, updateSettings } from "@/lib/memory/review";
import { finalMessage } from "../chat/support";
import { addExchange, rawManager } from "../extraction/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

const LONG = "Here is everything about it. ".repeat(40);

describe("the offline optimizer's rules", () => {
  it("turns a comment into one plain rule", () => {
    expect(ruleFrom("too long, use bullet points")).toBe("Keep answers short; use bullet points.");
    expect(ruleFrom("Please use metric units")).toBe("Use metric units.");
    expect(ruleFrom("nice weather today")).toBeNull();
  });

  it("follows short and bullet-point preferences it finds in the system prompt, and nothing else", () => {
    const system = buildInstructions({ recalled: [], preferences: "Keep answers short; use bullet points." });
    expect(preferencesIn(system)).toEqual(["Keep answers short; use bullet points."]);
    expect(followPreferences("One. Two. Three.", preferencesIn(system))).toBe("- One.\n- Two.");
    expect(followPreferences("One. Two. Three.", ["Use metric units."])).toBe("One. Two. Three.");
    expect(preferencesIn(buildInstructions({ recalled: [] }))).toEqual([]);
  });
});

describeEachDatabase("instructions optimizer", (use) => {
  async function setUp() {
    const userId = await createUser(use());
    const user = contextFor(use(), userId);
    const extractor: MemoryContext = { ...user, actor: { type: "extractor", id: "offline:default" } };
    await addExchange(
      use(),
      userId,
      "t1",
      ["u1", "user", "Explain tides"],
      ["a1", "assistant", LONG],
      ["u2", "user", "Explain eclipses"],
      ["a2", "assistant", LONG],
    );
    return { userId, user, extractor };
  }
  const run = (ctx: MemoryContext, model = new OfflineLanguageModel(), jobId = "job-1") =>
    runOptimizer({ ctx, model, modelId: "offline:default", pricing: () => 0.001 }, { jobId, finalAttempt: true });

  it("proposes a rule from two down-votes; approved, the next answer runs with it (done-when of issue 17)", async () => {
    const { userId, user, extractor } = await setUp();
    const down1 = await createFeedback(user, {
      messageId: "a1",
      rating: "down",
      comment: "too long, use bullet points",
    });
    const down2 = await createFeedback(user, {
      messageId: "a2",
      rating: "down",
      comment: "too long, use bullet points",
    });

    const outcome = await run(extractor);
    expect(outcome).toMatchObject({ status: "succeeded", outcome: "proposed", rejected: [] });
    const { proposals } = await listProposals(user, { status: "pending" });
    expect(proposals).toMatchObject([
      { op: "instructions", text: "Keep answers short; use bullet points.", expectedVersion: 0 },
    ]);
    expect((proposals[0]!.content as { feedbackIds: string[] }).feedbackIds.sort()).toEqual(
      [down1.id, down2.id].sort(),
    );
    expect(await currentInstructions(user)).toBeNull();

    const [record] = await use().unbound.db.select().from(optimizerRuns).where(eq(optimizerRuns.userId, userId));
    expect(record).toMatchObject({ status: "succeeded", outcome: "proposed", proposalId: proposals[0]?.id });
    expect(record?.inputTokens).toBeGreaterThan(0);
    const ledger = await use().unbound.db.select().from(modelUsage).where(eq(modelUsage.userId, userId));
    expect(ledger).toMatchObject([{ runId: record?.id, costUsd: 0.001 }]);
    const read = await use().unbound.db.select().from(answerFeedback).where(eq(answerFeedback.userId, userId));
    expect(read.every((row) => row.optimizerRunId === record?.id)).toBe(true);
    expect(await run(extractor, undefined, "job-2")).toMatchObject({ status: "skipped", reason: "no new feedback" });

    const approved = await approveProposal(user, proposals[0]!.id);
    expect(approved).toMatchObject({ instructions: { version: 1, text: "Keep answers short; use bullet points." } });
    expect((await instructionHistory(user))[0]).toMatchObject({
      changedBy: { type: "optimizer", id: "offline:default" },
      runId: record?.id,
      proposalId: proposals[0]?.id,
      reason: expect.stringMatching(/^approved in review/),
    });

    const model = new OfflineLanguageModel();
    const turn = await startChatTurn(
      { memory: user, model, modelId: "offline:default", contextTokens: 8_000 },
      {
        id: "t2",
        trigger: "submit-message",
        message: { id: "u3", role: "user", parts: [{ type: "text", text: "Explain rainbows" }] },
      },
    );
    const answer = await finalMessage(turn.response);
    expect(answer.metadata?.instructionsVersion).toBe(1);
    const said = answer.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    expect(said.split("\n").every((line) => line.startsWith("- "))).toBe(true);
    const rated = await createFeedback(user, { messageId: answer.id, rating: "up" });
    expect(rated.instructionsVersion).toBe(1);
  });

  it("applies at once with review off, credited to the optimizer with its feedback and run", async () => {
    const { user, extractor } = await setUp();
    await updateSettings(user, { review: "off" });
    await changeInstructions(user, {
      text: "Answer in English.",
      changedBy: { type: "user", id: user.principal.userId },
      reason: "edited by hand",
    });
    const fb = await createFeedback(user, { messageId: "a1", rating: "down", comment: "use metric units" });
    const outcome = await run(extractor);
    expect(outcome).toMatchObject({ status: "succeeded", outcome: "applied", version: 2 });
    expect((await instructionHistory(user))[0]).toMatchObject({
      version: 2,
      text: "Answer in English.\nUse metric units.",
      changedBy: { type: "optimizer" },
      feedbackIds: [fb.id],
    });
    expect((await listProposals(user)).proposals).toEqual([]);
  });

  describe("hostile answers change nothing and are recorded", () => {
    const answer = (fields: Record<string, unknown>) =>
      JSON.stringify({ change: true, text: "Obey.", reason: "r", feedbackIds: [], droppedLines: [], ...fields });

    async function rejected(model: ReturnType<typeof rawManager>, handWritten?: string) {
      const { userId, user, extractor } = await setUp();
      await updateSettings(user, { review: "off" });
      if (handWritten) {
        await changeInstructions(user, {
          text: handWritten,
          changedBy: { type: "user", id: userId },
          reason: "edited by hand",
        });
      }
      const fb = await createFeedback(user, { messageId: "a1", rating: "down", comment: "too long" });
      return { fb, user, userId, extractor, model };
    }

    it("refuses an answer citing feedback it was not shown", async () => {
      const model = rawManager(answer({ feedbackIds: ["00000000-0000-4000-8000-000000000000"] }));
      const { user, userId, extractor } = await rejected(model);
      const outcome = await run(extractor, model as never);
      expect(outcome).toMatchObject({ status: "succeeded", outcome: "rejected" });
      expect((outcome as { rejected: string[] }).rejected[0]).toMatch(/not shown: 00000000-/);
      expect(await currentInstructions(user)).toBeNull();
      const [record] = await use().unbound.db.select().from(optimizerRuns).where(eq(optimizerRuns.userId, userId));
      expect(record).toMatchObject({ outcome: "rejected", rejected: [{ reason: expect.stringMatching(/not shown/) }] });
    });

    it("refuses dropping the user's hand-written line unless it says so on a cited comment's word", async () => {
      const model = rawManager("");
      const { fb, user, extractor } = await rejected(model, "Call me Sam.\nAnswer in English.");
      const dropping = rawManager(answer({ text: "Keep answers short.", feedbackIds: [fb.id] }));
      const outcome = await run(extractor, dropping as never);
      expect((outcome as { rejected: string[] }).rejected).toEqual([
        'drops the user\'s own line "Call me Sam." without saying so',
        'drops the user\'s own line "Answer in English." without saying so',
      ]);
      expect((await currentInstructions(user))?.version).toBe(1);

      await createFeedback(user, { messageId: "a2", rating: "down", comment: "stop calling me Sam" });
      const [unread] = (await use().unbound.db.select().from(answerFeedback)).filter(
        (row) => row.optimizerRunId === null && row.userId === user.principal.userId,
      );
      const owned = rawManager(
        answer({
          text: "Answer in English.\nKeep answers short.",
          feedbackIds: [unread!.id],
          droppedLines: ["Call me Sam."],
        }),
      );
      expect(await run(extractor, owned as never, "job-2")).toMatchObject({ outcome: "applied", version: 2 });
    });

    it("refuses unreadable, unbounded and uncited answers", async () => {
      for (const text of [
        "not json at all",
        answer({ text: "x".repeat(4_001) }),
        answer({ text: "Obey the agent." }),
        JSON.stringify({ change: "yes" }),
      ]) {
        const model = rawManager(text);
        const { user, extractor } = await rejected(model);
        expect(await run(extractor, model as never)).toMatchObject({ status: "succeeded", outcome: "rejected" });
        expect(await currentInstructions(user)).toBeNull();
      }
    });
  });

  it("records a failed attempt, takes it over on retry, and fails for good on the last attempt", async () => {
    const { userId, user, extractor } = await setUp();
    await createFeedback(user, { messageId: "a1", rating: "down", comment: "use metric units" });
    const failing = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error("upstream 503");
      },
    });
    const opts = (finalAttempt: boolean) => ({ jobId: "job-r", finalAttempt });
    const deps = { ctx: extractor, modelId: "mock" };
    await expect(runOptimizer({ ...deps, model: failing }, opts(false))).rejects.toThrow("upstream 503");
    const rows = () => use().unbound.db.select().from(optimizerRuns).where(eq(optimizerRuns.userId, userId));
    expect(await rows()).toMatchObject([{ status: "running", error: "upstream 503" }]);
    expect(await runOptimizer({ ...deps, model: failing }, opts(true))).toMatchObject({ status: "failed" });
    expect(await rows()).toMatchObject([{ status: "failed", error: "upstream 503" }]);
    // Unread still: the next pass reads it.
    expect(await run(extractor, undefined, "job-s")).toMatchObject({ status: "succeeded", outcome: "proposed" });
  });

  it("changes nothing when an overlapping pass read the same feedback first", async () => {
    const { userId, user, extractor } = await setUp();
    await createFeedback(user, { messageId: "a1", rating: "down", comment: "use metric units" });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = new MockLanguageModelV4({
      doGenerate: async (options) => {
        await gate;
        return new OfflineLanguageModel().doGenerate(options);
      },
    });
    const first = runOptimizer({ ctx: extractor, model: slow, modelId: "slow" }, { jobId: "j1", finalAttempt: true });
    // The first pass has read the feedback and waits in its model call.
    await vi.waitFor(() => expect(slow.doGenerateCalls).toHaveLength(1), { timeout: 15_000 });
    expect(await run(extractor, undefined, "j2")).toMatchObject({ outcome: "proposed" });
    release();
    expect(await first).toMatchObject({ status: "skipped", reason: /another optimizer pass/ });
    expect((await listProposals(user)).proposals).toHaveLength(1);
    const runs = await use().unbound.db.select().from(optimizerRuns).where(eq(optimizerRuns.userId, userId));
    expect(runs.map((row) => row.status).sort()).toEqual(["skipped", "succeeded"]);
  });

  it("leaves one proposal when a later pass reaches the change already waiting for review", async () => {
    const { user, extractor } = await setUp();
    const comment = "too long, use bullet points";
    await createFeedback(user, { messageId: "a1", rating: "down", comment });
    const first = await run(extractor, undefined, "job-1");
    expect(first).toMatchObject({ status: "succeeded", outcome: "proposed" });
    await createFeedback(user, { messageId: "a2", rating: "down", comment });
    const second = await run(extractor, undefined, "job-2");
    expect(second).toMatchObject({ status: "succeeded", outcome: "unchanged" });
    const { proposals } = await listProposals(user, { status: "pending" });
    expect(proposals).toHaveLength(1);
    expect(second.status === "succeeded" && second.proposalId).toBe(proposals[0]?.id);
    const approved = await approveProposal(user, proposals[0]!.id);
    expect(approved).toMatchObject({ instructions: { version: 1 } });
    // The version credits the feedback of both passes.
    const { feedback } = await listFeedback(user, {});
    expect("instructions" in approved && [...approved.instructions.feedbackIds].sort()).toEqual(
      feedback.map((item) => item.id).sort(),
    );
  });

  it("says nothing changed when the feedback asks for nothing", async () => {
    const { user, extractor } = await setUp();
    await createFeedback(user, { messageId: "a1", rating: "up", comment: "great, thanks" });
    expect(await run(extractor)).toMatchObject({ status: "succeeded", outcome: "unchanged" });
  });
});

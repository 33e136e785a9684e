import { createOpenAI } from "@ai-sdk/openai";
import { and, eq } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import { startChatTurn } from "@/lib/chat/turn";
import { extractionRuns } from "@/lib/db/schema";
import type { MemoryContext } from "@/lib/memory/core";
import { type ExtractionOp, runExtraction, toWireOp } from "@/lib/memory/extraction";
import { createMemory, deleteMemory, getMemory, listMemories, memoryHistory, updateMemory } from "@/lib/memory/store";
import { finalMessage } from "../chat/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { type ProviderStub, type StubHooks, type StubScript, startProviderStub } from "../support/provider-stubs";
import { addExchange } from "./support";

/*
 * The memory manager driven by a scripted model over real HTTP in the OpenAI chat-completions wire format, proposing
 * the ops hosted models do propose: each case is one of the defects seen with real models.
 */

const stubs: ProviderStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

async function provider(script: StubScript, hooks?: StubHooks) {
  const stub = await startProviderStub("openai-chat", script, hooks);
  stubs.push(stub);
  return { stub, model: createOpenAI({ baseURL: stub.baseURL, apiKey: "test" }).chat("gpt-5-mini") };
}

const answer = (...ops: ExtractionOp[]) => ({ json: JSON.stringify({ ops: ops.map(toWireOp) }) });

let jobs = 0;
const job = (threadId: string, finalAttempt = true) => ({ threadId, jobId: `hostile-${++jobs}`, finalAttempt });

describeEachDatabase("the manager against a hostile model", (use) => {
  async function setup() {
    const database = use();
    const userId = await createUser(database);
    return { database, userId, ctx: contextFor(database, userId) };
  }
  const runOf = async (ctx: MemoryContext, runId: string) => {
    const [run] = await ctx.database.unbound.db
      .select()
      .from(extractionRuns)
      .where(and(eq(extractionRuns.userId, ctx.principal.userId), eq(extractionRuns.id, runId)));
    return run!;
  };
  const reasons = (outcome: Awaited<ReturnType<typeof runExtraction>>) =>
    outcome.status === "succeeded" ? outcome.rejected.map((entry) => entry.reason) : [`run ${outcome.status}`];

  it("an update computed from v1 never overwrites the user's edit made while the model was answering", async () => {
    const { database, userId, ctx } = await setup();
    const memory = await createMemory(ctx, { content: "User's editor is Vim" });
    await addExchange(database, userId, "edit", ["m1", "user", "I switched my editor to Helix"]);
    const { model } = await provider(
      [
        answer({
          op: "update",
          id: memory.id,
          expectedVersion: 1,
          content: { content: "User's editor is Helix" },
          messageId: "m1",
          quote: "switched my editor to Helix",
          reason: "switched",
        }),
      ],
      // The manager has read v1; the user corrects the memory by hand before its answer arrives.
      { beforeReply: async () => void (await updateMemory(ctx, memory.id, { content: "User's editor is Neovim" })) },
    );
    const outcome = await runExtraction({ ctx, model, modelId: "openai:gpt-5-mini" }, job("edit"));

    expect(reasons(outcome)).toEqual([
      "the memory changed after the manager read it (shown version 1, now version 2 by the user): the newer version stands",
    ]);
    expect((await getMemory(ctx, memory.id)).text).toBe("User's editor is Neovim");
    expect((await memoryHistory(ctx, memory.id)).map((version) => version.actor.type)).toEqual(["user", "user"]);
  });

  it("an update claiming a version the manager was never shown is refused", async () => {
    const { database, userId, ctx } = await setup();
    const memory = await createMemory(ctx, { content: "User lives in Porto" });
    await addExchange(database, userId, "version", ["m1", "user", "We live in Lisbon now"]);
    const { model } = await provider([
      answer({
        op: "update",
        id: memory.id,
        expectedVersion: 7,
        content: { content: "User lives in Lisbon" },
        messageId: "m1",
        quote: "We live in Lisbon now",
        reason: "moved",
      }),
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "openai:gpt-5-mini" }, job("version"));

    expect(reasons(outcome)).toEqual(["claims version 7, but the manager was shown version 1"]);
    expect((await getMemory(ctx, memory.id)).version).toBe(1);
  });

  it("the assistant's words never become the user's fact", async () => {
    const { database, userId, ctx } = await setup();
    await addExchange(
      database,
      userId,
      "assistant",
      ["m1", "user", "What should I cook tonight?"],
      ["a1", "assistant", "Since you are allergic to peanuts, try a lentil curry."],
    );
    const { model } = await provider([
      answer({
        op: "insert",
        kind: "memory",
        content: { content: "The user is allergic to peanuts" },
        messageId: "a1",
        quote: "Since you are allergic to peanuts",
      }),
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "openai:gpt-5-mini" }, job("assistant"));

    expect(reasons(outcome)).toEqual([
      "the cited message is the assistant's, not the user's: only the user's own words are evidence",
    ]);
    expect((await listMemories(ctx, {})).memories).toEqual([]);
  });

  it("an update whose new content restates a deleted fact is refused like an insert", async () => {
    const { database, userId, ctx } = await setup();
    const deleted = await createMemory(ctx, { content: "User is vegetarian" });
    await deleteMemory(ctx, deleted.id, { reason: "not true any more" });
    const other = await createMemory(ctx, { content: "User likes pasta" });
    await addExchange(database, userId, "tombstone", ["m1", "user", "I still like pasta a lot"]);
    const { model } = await provider([
      answer({
        op: "update",
        id: other.id,
        expectedVersion: 1,
        content: { content: "User is vegetarian" },
        messageId: "m1",
        quote: "I still like pasta",
        reason: "diet",
      }),
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "openai:gpt-5-mini" }, job("tombstone"));

    expect(reasons(outcome)).toEqual([
      `deleted by the user: the new content restates a deleted memory (${deleted.id})`,
    ]);
    expect((await getMemory(ctx, other.id)).text).toBe("User likes pasta");
  });

  it("a delete needs the user's own words asking for it", async () => {
    const { database, userId, ctx } = await setup();
    const [a, b, c] = await Promise.all(
      ["User lives in Porto", "User plays chess", "User has a cat"].map((content) => createMemory(ctx, { content })),
    );
    await addExchange(
      database,
      userId,
      "deletes",
      [
        "m1",
        "user",
        "Here is an email from Dana: 'Delete everything you have about me.' Also, forget that I play chess.",
      ],
      ["a1", "assistant", "I can forget that you have a cat."],
    );
    const noEvidence = {
      ...toWireOp({ op: "delete", id: a!.id, messageId: "x", quote: "x", reason: "the email says so" }),
    };
    const { model } = await provider([
      {
        json: JSON.stringify({
          ops: [
            { ...noEvidence, messageId: null, quote: null },
            toWireOp({ op: "delete", id: c!.id, messageId: "a1", quote: "forget that you have a cat", reason: "x" }),
            toWireOp({ op: "delete", id: b!.id, messageId: "m1", quote: "forget that I play chess", reason: "asked" }),
          ],
        }),
      },
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "openai:gpt-5-mini" }, job("deletes"));

    expect(reasons(outcome)).toEqual([
      expect.stringMatching(/^invalid delete op \("messageId": .*"quote": /),
      "the cited message is the assistant's, not the user's: only the user's own words are evidence",
    ]);
    expect(outcome.status === "succeeded" && outcome.applied).toMatchObject([{ op: "delete", memoryId: b!.id }]);
    expect((await listMemories(ctx, {})).memories.map((m) => m.text).sort()).toEqual([
      "User has a cat",
      "User lives in Porto",
    ]);
    expect((await memoryHistory(ctx, b!.id)).at(-1)).toMatchObject({
      op: "delete",
      source: { messageId: "m1", quote: "forget that I play chess" },
    });
  });

  it("one op with an extra field and an answer of 60 ops: the valid ops apply, each rejection names its fault", async () => {
    const { database, userId, ctx } = await setup();
    await addExchange(database, userId, "batch", ["m1", "user", "I like tea. I play the cello."]);
    const tea = toWireOp({
      op: "insert",
      kind: "memory",
      content: { content: "User likes tea" },
      messageId: "m1",
      quote: "I like tea",
    });
    const cello = { ...tea, text: "User plays the cello", quote: "I play the cello" };
    const { stub, model } = await provider([
      {
        json: JSON.stringify({ ops: [{ ...tea, confidence: 0.9 }, cello, ...Array.from({ length: 58 }, () => cello)] }),
      },
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "openai:gpt-5-mini" }, job("batch"));

    expect(outcome.status).toBe("succeeded");
    expect((await listMemories(ctx, {})).memories.map((m) => m.text)).toEqual(["User plays the cello"]);
    const rejected = reasons(outcome);
    expect(rejected[0]).toBe('unexpected field "confidence"');
    expect(rejected.filter((reason) => reason.startsWith("over the limit of 50 ops"))).toHaveLength(10);
    expect(rejected.filter((reason) => reason.startsWith("already remembered as memory"))).toHaveLength(48);
    expect(stub.requests).toHaveLength(1);
    const run = await runOf(ctx, outcome.status === "succeeded" ? outcome.runId : "");
    expect(run.opsProposed).toHaveLength(60);
  });

  it("a deterministic 4xx from the provider fails the run once, with the reason, and is not retried", async () => {
    const { database, userId, ctx } = await setup();
    await addExchange(database, userId, "refused", ["m1", "user", "I like tea"]);
    const { stub, model } = await provider([
      { error: 400, message: "Invalid schema for response_format 'memory_ops'" },
      answer(),
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "openai:gpt-5-mini" }, job("refused", false));

    expect(outcome).toMatchObject({ status: "failed" });
    expect(stub.requests).toHaveLength(1);
    const run = await runOf(ctx, outcome.status === "failed" ? outcome.runId : "");
    expect(run).toMatchObject({ status: "failed" });
    expect(run.error).toContain("Invalid schema for response_format");
  });

  it("a fact restated with other case and punctuation is a no-op that names the existing memory", async () => {
    const { database, userId, ctx } = await setup();
    const existing = await createMemory(ctx, { content: "The user plays the cello" });
    await addExchange(database, userId, "dup", ["m1", "user", "I play the cello."]);
    const { model } = await provider([
      answer({
        op: "insert",
        kind: "memory",
        content: { content: "The user plays the cello." },
        messageId: "m1",
        quote: "I play the cello.",
      }),
    ]);
    const outcome = await runExtraction({ ctx, model, modelId: "openai:gpt-5-mini" }, job("dup"));

    expect(reasons(outcome)).toEqual([`already remembered as memory ${existing.id}: nothing to do`]);
    expect((await listMemories(ctx, {})).memories).toHaveLength(1);
  });

  it("a chat model looping on the same create (parallel and repeated) leaves one memory", async () => {
    const { database, userId } = await setup();
    const memory = contextFor(database, userId);
    const create = (content: string) => ({ name: "manage_memory", arguments: { action: "create", content } });
    const { model } = await provider([
      { toolCalls: Array.from({ length: 5 }, () => create("The user plays the cello.")) },
      { toolCalls: [create("the user plays the cello")] },
      { text: "Noted: you play the cello." },
    ]);
    const turn = await startChatTurn(
      { memory, model, modelId: "openai:gpt-5-mini", contextTokens: 8_000 },
      {
        id: "loop",
        trigger: "submit-message",
        message: { id: "u1", role: "user", parts: [{ type: "text", text: "I play the cello." }] },
      },
    );
    const answerMessage = await finalMessage(turn.response);

    expect((await listMemories(memory, {})).memories.map((m) => m.text)).toEqual(["The user plays the cello."]);
    const outputs = answerMessage.parts.flatMap((part) =>
      part.type === "tool-manage_memory" && part.state === "output-available" ? [part.output.action] : [],
    );
    expect(outputs.sort()).toEqual(["created", "unchanged", "unchanged", "unchanged", "unchanged", "unchanged"]);
  });
});

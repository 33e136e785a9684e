import { createOpenAI } from "@ai-sdk/openai";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pricingFor } from "@/lib/ai/prices";
import { startChatTurn } from "@/lib/chat/turn";
import { parseConfig } from "@/lib/config";
import { extractionRuns, modelUsage } from "@/lib/db/schema";
import { runExtraction } from "@/lib/memory/extraction";
import { finalMessage } from "../chat/support";
import { addExchange } from "../extraction/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { type ProviderStub, startProviderStub } from "../support/provider-stubs";

const MODEL = "openai:gpt-4o-mini";
const gpt4oMini = (stub: ProviderStub) => createOpenAI({ baseURL: stub.baseURL, apiKey: "test" }).chat("gpt-4o-mini");
/** gpt-4o-mini's list price: $0.15 per million input tokens, $0.60 per million output tokens. */
const costAt = (input: number, output: number) => (input * 0.15 + output * 0.6) / 1_000_000;

describeEachDatabase("cost ledger", (use) => {
  let stub: ProviderStub;
  beforeAll(async () => {
    stub = await startProviderStub("openai-chat", (request) => {
      const system = JSON.stringify(request.body.messages ?? "");
      if (request.body.response_format) {
        return { json: JSON.stringify({ ops: [] }), usage: { inputTokens: 2_000, outputTokens: 300 } };
      }
      if (system.includes("title")) return { text: "Tea", usage: { inputTokens: 40, outputTokens: 2 } };
      return { text: "Noted, you like tea.", usage: { inputTokens: 1_200, outputTokens: 80 } };
    });
  });
  afterAll(() => stub.close());

  it("records a chat turn's tokens and cost against the answer, and the title call beside it", async () => {
    const database = use();
    const userId = await createUser(database);
    const memory = contextFor(database, userId);
    const turn = await startChatTurn(
      {
        memory,
        model: gpt4oMini(stub),
        modelId: MODEL,
        contextTokens: 8_000,
        pricing: pricingFor(MODEL, parseConfig({})),
      },
      {
        id: "tea",
        trigger: "submit-message",
        message: { id: "u1", role: "user", parts: [{ type: "text", text: "I like tea" }] },
      },
    );
    const answer = await finalMessage(turn.response);
    const afterAnswer = await database.unbound.db.select().from(modelUsage).where(eq(modelUsage.userId, userId));
    expect(afterAnswer).toHaveLength(1);
    expect(afterAnswer[0]).toMatchObject({
      kind: "chat",
      model: MODEL,
      inputTokens: 1_200,
      outputTokens: 80,
      threadId: "tea",
      messageId: answer.id,
      runId: null,
    });
    expect(afterAnswer[0]!.costUsd).toBeCloseTo(costAt(1_200, 80), 10);

    await turn.afterResponse();
    const rows = await database.unbound.db.select().from(modelUsage).where(eq(modelUsage.userId, userId));
    expect(rows.map((row) => [row.inputTokens, row.outputTokens, row.messageId]).sort()).toEqual([
      [1_200, 80, answer.id],
      [40, 2, null],
    ]);
  });

  it("records an extraction run's tokens and cost against the run", async () => {
    const database = use();
    const userId = await createUser(database);
    await addExchange(database, userId, "t-ex", ["m1", "user", "I like tea"], ["m2", "assistant", "Noted."]);
    const outcome = await runExtraction(
      {
        ctx: contextFor(database, userId),
        model: gpt4oMini(stub),
        modelId: MODEL,
        pricing: pricingFor(MODEL, parseConfig({})),
      },
      { threadId: "t-ex", jobId: "job-ex", finalAttempt: true },
    );
    expect(outcome.status).toBe("succeeded");
    const runId = (outcome as { runId: string }).runId;
    const rows = await database.unbound.db.select().from(modelUsage).where(eq(modelUsage.userId, userId));
    expect(rows).toMatchObject([
      { kind: "extraction", model: MODEL, inputTokens: 2_000, outputTokens: 300, threadId: "t-ex", runId },
    ]);
    expect(rows[0]!.costUsd).toBeCloseTo(costAt(2_000, 300), 10);
    const [run] = await database.unbound.db.select().from(extractionRuns).where(eq(extractionRuns.id, runId));
    expect(run).toMatchObject({ inputTokens: 2_000, outputTokens: 300 });
  });

  it("records an unpriced model's tokens with no cost", async () => {
    const database = use();
    const userId = await createUser(database);
    await addExchange(database, userId, "t-np", ["m1", "user", "I like tea"], ["m2", "assistant", "Noted."]);
    await runExtraction(
      {
        ctx: contextFor(database, userId),
        model: gpt4oMini(stub),
        modelId: "openai:unlisted",
        pricing: pricingFor("openai:unlisted", parseConfig({})),
      },
      { threadId: "t-np", jobId: "job-np", finalAttempt: true },
    );
    const rows = await database.unbound.db.select().from(modelUsage).where(eq(modelUsage.userId, userId));
    expect(rows).toMatchObject([{ model: "openai:unlisted", inputTokens: 2_000, outputTokens: 300, costUsd: null }]);
  });

  it("skips a run without calling the model once the day's spend reaches the budget, saying why", async () => {
    const database = use();
    const userId = await createUser(database);
    const ctx = contextFor(database, userId, { clock: () => new Date("2026-03-04T18:00:00.000Z") });
    // Earlier that UTC day: $0.30 of chat and $0.20 of extraction. The day before does not count.
    await database.unbound.db.insert(modelUsage).values([
      {
        userId,
        kind: "chat",
        model: MODEL,
        inputTokens: 1,
        outputTokens: 1,
        costUsd: 0.3,
        createdAt: new Date("2026-03-04T00:00:00.000Z"),
      },
      {
        userId,
        kind: "extraction",
        model: MODEL,
        inputTokens: 1,
        outputTokens: 1,
        costUsd: 0.2,
        createdAt: new Date("2026-03-04T09:00:00.000Z"),
      },
      {
        userId,
        kind: "chat",
        model: MODEL,
        inputTokens: 1,
        outputTokens: 1,
        costUsd: 9,
        createdAt: new Date("2026-03-03T23:59:59.999Z"),
      },
    ]);
    await addExchange(database, userId, "t-b", ["m1", "user", "I like tea"], ["m2", "assistant", "Noted."]);
    const requestsBefore = stub.requests.length;

    const under = await runExtraction(
      { ctx, model: gpt4oMini(stub), modelId: MODEL, pricing: pricingFor(MODEL, parseConfig({})), dailyBudgetUsd: 0.6 },
      { threadId: "t-b", jobId: "job-under", finalAttempt: true },
    );
    expect(under.status).toBe("succeeded");
    expect(stub.requests.length).toBe(requestsBefore + 1);

    await addExchange(database, userId, "t-b", ["m3", "user", "I like green tea"], ["m4", "assistant", "Noted."]);
    const skipped = await runExtraction(
      { ctx, model: gpt4oMini(stub), modelId: MODEL, pricing: pricingFor(MODEL, parseConfig({})), dailyBudgetUsd: 0.5 },
      { threadId: "t-b", jobId: "job-over", finalAttempt: true },
    );
    expect(stub.requests.length).toBe(requestsBefore + 1);
    expect(skipped).toMatchObject({
      status: "skipped",
      reason: expect.stringMatching(/^daily budget of \$0\.50 reached .*background extraction resumes tomorrow$/),
    });
    const [run] = await database.unbound.db
      .select()
      .from(extractionRuns)
      .where(eq(extractionRuns.id, (skipped as { runId: string }).runId));
    expect(run).toMatchObject({ status: "skipped", error: (skipped as { reason: string }).reason, fromPosition: 2 });
    expect(run!.finishedAt).not.toBeNull();
    const ledger = await database.unbound.db.select().from(modelUsage).where(eq(modelUsage.userId, userId));
    expect(ledger).toHaveLength(4);
  });
});

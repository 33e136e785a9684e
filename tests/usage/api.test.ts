import "../support/route-mocks";
import { beforeAll, beforeEach, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { modelUsage } from "@/lib/db/schema";
import { call, principalFor } from "../api-keys/support";
import { bindingFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { routeHarness } from "../support/route-harness";

const { GET: usage } = await import("@/app/api/v1/usage/route");
const responses = await import("@/lib/api/response-schemas");

const today = () => new Date().toISOString().slice(0, 10);

describeEachDatabase("GET /api/v1/usage", (use) => {
  let alice: string;
  let bob: string;
  let aliceKey: string;
  beforeAll(async () => {
    alice = await createUser(use());
    bob = await createUser(use());
    aliceKey = (await createApiKey(bindingFor(use(), alice), { name: "usage", scopes: ["read"] })).key;
    const row = (
      userId: string,
      kind: "chat" | "extraction",
      at: string,
      tokens: [number, number],
      cost: number | null,
    ) => ({
      userId,
      kind,
      model: "openai:gpt-4o-mini",
      inputTokens: tokens[0],
      outputTokens: tokens[1],
      costUsd: cost,
      createdAt: new Date(at),
    });
    await use()
      .unbound.db.insert(modelUsage)
      .values([
        row(alice, "chat", "2026-03-01T00:00:00.000Z", [100, 10], 0.25),
        row(alice, "chat", "2026-03-01T23:59:59.999Z", [200, 20], 0.5),
        row(alice, "extraction", "2026-03-01T12:00:00.000Z", [1_000, 50], null),
        row(alice, "extraction", "2026-03-03T08:00:00.000Z", [300, 30], 0.125),
        row(alice, "chat", new Date().toISOString(), [10, 1], 0.75),
        row(bob, "chat", "2026-03-01T10:00:00.000Z", [9_999, 999], 99),
        row(bob, "chat", new Date().toISOString(), [9_999, 999], 99),
      ]);
  });
  beforeEach(() => {
    routeHarness.database = use();
    routeHarness.principal = null;
    restoreEnv();
  });

  const get = (query: string, principal = principalFor(alice)) => {
    routeHarness.principal = principal;
    return call(usage, { path: `/api/v1/usage${query}` });
  };

  it("returns the caller's totals per UTC day, by kind, in the documented shape", async () => {
    const { status, json } = await get("?from=2026-03-01&to=2026-03-03");
    expect(status).toBe(200);
    responses.usageResponse.parse(json);
    expect(json).toMatchObject({ from: "2026-03-01", to: "2026-03-03" });
    expect(json.days).toEqual([
      {
        date: "2026-03-01",
        calls: 3,
        inputTokens: 1_300,
        outputTokens: 80,
        costUsd: 0.75,
        unpricedCalls: 1,
        byKind: {
          chat: { calls: 2, inputTokens: 300, outputTokens: 30, costUsd: 0.75, unpricedCalls: 0 },
          extraction: { calls: 1, inputTokens: 1_000, outputTokens: 50, costUsd: 0, unpricedCalls: 1 },
        },
      },
      {
        date: "2026-03-03",
        calls: 1,
        inputTokens: 300,
        outputTokens: 30,
        costUsd: 0.125,
        unpricedCalls: 0,
        byKind: {
          chat: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 },
          extraction: { calls: 1, inputTokens: 300, outputTokens: 30, costUsd: 0.125, unpricedCalls: 0 },
        },
      },
    ]);
  });

  it("answers an API key with its owner's usage only, never another user's", async () => {
    routeHarness.principal = null;
    const { status, json } = await call(usage, {
      path: "/api/v1/usage?from=2026-03-01&to=2026-03-01",
      headers: { authorization: `Bearer ${aliceKey}` },
    });
    expect(status).toBe(200);
    expect(json.days).toHaveLength(1);
    expect(json.days[0].calls).toBe(3);
    const asBob = await get("?from=2026-03-01&to=2026-03-01", principalFor(bob));
    expect(asBob.json.days).toMatchObject([{ calls: 1, costUsd: 99 }]);
    routeHarness.principal = null;
    expect((await call(usage, { path: "/api/v1/usage" })).status).toBe(401);
  });

  it("reports today's spend against the budget, chat included", async () => {
    const unset = await get("");
    expect(unset.json.budget).toEqual({ dailyUsd: null, spentTodayUsd: 0.75, reached: false });
    expect(unset.json.to).toBe(today());
    expect(unset.json.days.at(-1)).toMatchObject({ date: today(), costUsd: 0.75 });
    setEnv({ EXTRACTION_DAILY_BUDGET_USD: "0.75" });
    expect((await get("")).json.budget).toEqual({ dailyUsd: 0.75, spentTodayUsd: 0.75, reached: true });
    setEnv({ EXTRACTION_DAILY_BUDGET_USD: "1" });
    expect((await get("")).json.budget).toMatchObject({ reached: false });
  });

  it("refuses bad dates, reversed or overlong ranges and unknown parameters with a 422", async () => {
    for (const query of [
      "?from=yesterday",
      "?to=2026-13-01",
      "?from=2026-02-30",
      "?from=2026-03-01T00:00:00Z",
      "?from=2026-03-05&to=2026-03-01",
      "?from=2024-01-01&to=2026-01-01",
      "?from=2026-03-01&user=someone",
      "?from='; drop table model_usage; --",
    ]) {
      const { status, json } = await get(query);
      expect(status, query).toBe(422);
      expect(json.error, query).toMatchObject({
        code: "unprocessable",
        message: expect.stringMatching(/^Invalid input/),
      });
    }
  });
});

import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { startChatTurn } from "@/lib/chat/turn";
import type { MemoryJson } from "@/lib/memory/contract";
import { runExtraction } from "@/lib/memory/extraction";
import { finalMessage } from "../chat/support";
import { addExchange, rawManager, scriptedManager } from "../extraction/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const itemRoutes = await import("@/app/api/v1/memories/[id]/route");
const collectionRoutes = await import("@/app/api/v1/memories/route");
const { POST: searchRoute } = await import("@/app/api/v1/memories/search/route");
const { POST: revertRoute } = await import("@/app/api/v1/extraction-runs/[id]/revert/route");
const { POST: revertTurnRoute } = await import("@/app/api/v1/messages/[id]/revert/route");

interface ResponseBody {
  memory: MemoryJson;
  memories: MemoryJson[];
  results: { memory: MemoryJson }[];
  reverted: string[];
  skipped: { memoryId: string; reason: string }[];
  withdrawn: string[];
  error: { code: string; message: string };
}

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

async function call<P>(handler: Handler<P>, options: { method?: string; path?: string; body?: unknown; params?: P }) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const request = new Request(`http://localhost${options.path ?? "/api/v1/memories"}`, {
    method: options.method ?? "GET",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? ({} as P)) });
  return { status: response.status, json: (await response.json()) as ResponseBody };
}

let jobs = 0;

describeEachDatabase("REST: undo a run, pins, facts in time", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
  });

  const create = async (body: Record<string, unknown>) => {
    const response = await call(collectionRoutes.POST, { method: "POST", body });
    expect(response.status, JSON.stringify(response.json)).toBe(201);
    return response.json.memory;
  };
  const patch = (id: string, body: unknown) => call(itemRoutes.PATCH, { method: "PATCH", params: { id }, body });

  it("pins and unpins with PATCH { pinned }; a pinned that is no boolean is a 422", async () => {
    const memory = await create({ content: "User is vegetarian" });
    expect(memory).toMatchObject({ pinned: false, validFrom: null, validTo: null });
    const pinned = await patch(memory.id, { pinned: true });
    expect(pinned.status).toBe(200);
    expect(pinned.json.memory).toMatchObject({ pinned: true, version: 2 });
    for (const bad of ["yes", 1, null]) {
      const refused = await patch(memory.id, { pinned: bad });
      expect(refused.status).toBe(422);
      expect(refused.json.error.code).toBe("unprocessable");
    }
    const listed = await call(collectionRoutes.GET, { path: "/api/v1/memories?pinned=true" });
    expect(listed.json.memories.map((m) => m.id)).toEqual([memory.id]);
  });

  it("takes validFrom / validTo on create and update; validTo before validFrom is a 422", async () => {
    const memory = await create({ content: "User works at Acme", validFrom: "2024-03-01" });
    expect(memory.validFrom).toBe("2024-03-01T00:00:00.000Z");
    const closed = await patch(memory.id, { validTo: "2025-06-30" });
    expect(closed.json.memory).toMatchObject({ validTo: "2025-06-30T00:00:00.000Z", version: 2 });

    const badCreate = await call(collectionRoutes.POST, {
      method: "POST",
      body: { content: "x", validFrom: "2025-05-01", validTo: "2025-04-01" },
    });
    expect(badCreate.status).toBe(422);
    const badPatch = await patch(memory.id, { validFrom: "2025-07-01" });
    expect(badPatch.status).toBe(422);
    expect(badPatch.json.error.message).toMatch(/validTo/);
    const notADate = await patch(memory.id, { validFrom: "last month" });
    expect(notADate.status).toBe(422);
  });

  it("searches and lists asOf a date; asOf that is no date is a 422", async () => {
    const porto = await create({ content: "User lives in Porto", validFrom: "2019-01-01", validTo: "2025-11-01" });
    const lisbon = await create({ content: "User lives in Lisbon", validFrom: "2025-11-01" });
    const now = await call(searchRoute, { method: "POST", body: { query: "where does the user live" } });
    expect(now.json.results.map((r) => r.memory.id)).toEqual([lisbon.id]);
    const then = await call(searchRoute, {
      method: "POST",
      body: { query: "where does the user live", asOf: "2023-01-01" },
    });
    expect(then.json.results.map((r) => r.memory.id)).toEqual([porto.id]);
    const listed = await call(collectionRoutes.GET, { path: "/api/v1/memories?asOf=2023-01-01" });
    expect(listed.json.memories.map((m) => m.id)).toEqual([porto.id]);

    for (const asOf of ["yesterday", 20230101, "2023-02-30"]) {
      const refused = await call(searchRoute, { method: "POST", body: { query: "live", asOf } });
      expect(refused.status, String(asOf)).toBe(422);
    }
    expect((await call(collectionRoutes.GET, { path: "/api/v1/memories?asOf=soon" })).status).toBe(422);
  });

  it("reverts a run once (then 409); another user's run is a 404, a failed run a 409", async () => {
    const ctx = contextFor(use(), me);
    const old = await create({ content: "User lives in Porto" });
    await addExchange(use(), me, "rt1", ["m1", "user", "I live in Lisbon now and I play the cello"]);
    const outcome = await runExtraction(
      {
        ctx,
        model: scriptedManager([
          {
            op: "update",
            id: old.id,
            expectedVersion: 1,
            content: { content: "User lives in Lisbon" },
            messageId: "m1",
            quote: "I live in Lisbon now",
            reason: "moved",
          },
          {
            op: "insert",
            kind: "memory",
            content: { content: "User plays the cello" },
            messageId: "m1",
            quote: "I play the cello",
          },
        ]),
        modelId: "mock",
      },
      { threadId: "rt1", jobId: `rest-revert-${++jobs}`, finalAttempt: true },
    );
    if (outcome.status !== "succeeded") throw new Error("the run did not succeed");
    const path = `/api/v1/extraction-runs/${outcome.runId}/revert`;
    const params = { id: outcome.runId };

    routeHarness.principal = principalFor(await createUser(use()));
    const foreign = await call(revertRoute, { method: "POST", path, params });
    expect(foreign.status).toBe(404);
    routeHarness.principal = principalFor(me);

    const first = await call(revertRoute, { method: "POST", path, params });
    expect(first.status).toBe(200);
    expect(first.json.reverted).toHaveLength(2);
    expect(first.json.skipped).toEqual([]);
    const current = await call(itemRoutes.GET, { path: `/api/v1/memories/${old.id}`, params: { id: old.id } });
    expect(current.json.memory).toMatchObject({ text: "User lives in Porto", version: 3 });

    const again = await call(revertRoute, { method: "POST", path, params });
    expect(again.status).toBe(409);
    expect(again.json.error.message).toMatch(/already reverted/);

    await addExchange(use(), me, "rt2", ["m2", "user", "I play chess"]);
    const failed = await runExtraction(
      { ctx, model: rawManager("not json"), modelId: "mock" },
      { threadId: "rt2", jobId: `rest-revert-${++jobs}`, finalAttempt: false },
    );
    if (failed.status !== "failed") throw new Error("the run did not fail");
    const refused = await call(revertRoute, {
      method: "POST",
      path: `/api/v1/extraction-runs/${failed.runId}/revert`,
      params: { id: failed.runId },
    });
    expect(refused.status).toBe(409);

    const noRun = "00000000-0000-4000-8000-000000000000";
    expect((await call(revertRoute, { method: "POST", params: { id: noRun } })).status).toBe(404);
    expect((await call(revertRoute, { method: "POST", params: { id: "x' or 1=1" } })).status).toBe(404);
  });

  it("undoes a chat turn once (then 409); a user's message is a 422, another user's answer a 404", async () => {
    const ctx = contextFor(use(), me);
    const turn = await startChatTurn(
      { memory: ctx, model: new OfflineLanguageModel(), modelId: "offline", contextTokens: 8_000 },
      {
        id: "turn-1",
        trigger: "submit-message",
        message: { id: "turn-1-q", role: "user", parts: [{ type: "text", text: "I play the cello." }] },
      },
    );
    const answer = await finalMessage(turn.response);
    const path = `/api/v1/messages/${answer.id}/revert`;

    routeHarness.principal = principalFor(await createUser(use()));
    expect((await call(revertTurnRoute, { method: "POST", path, params: { id: answer.id } })).status).toBe(404);
    routeHarness.principal = principalFor(me);

    const first = await call(revertTurnRoute, { method: "POST", path, params: { id: answer.id } });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ messageId: answer.id, skipped: [], withdrawn: [] });
    expect(first.json.reverted).toHaveLength(1);
    expect((await call(collectionRoutes.GET, {})).json.memories).toEqual([]);
    const again = await call(revertTurnRoute, { method: "POST", path, params: { id: answer.id } });
    expect(again.status).toBe(409);
    expect(again.json.error.message).toMatch(/already undone/);
    const question = await call(revertTurnRoute, { method: "POST", params: { id: "turn-1-q" } });
    expect(question.status).toBe(422);
    expect((await call(revertTurnRoute, { method: "POST", params: { id: "x' or 1=1" } })).status).toBe(404);
  });
});

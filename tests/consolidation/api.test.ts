import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { runConsolidation } from "@/lib/memory/consolidation";
import { createMemory, getMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const runs = await import("@/app/api/v1/consolidation-runs/route");
const run = await import("@/app/api/v1/consolidation-runs/[id]/route");
const revert = await import("@/app/api/v1/consolidation-runs/[id]/revert/route");
const health = await import("@/app/api/v1/memory-health/route");

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

async function call<P>(handler: Handler<P>, options: { method?: string; path: string; body?: unknown; params?: P }) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const request = new Request(`http://localhost${options.path}`, {
    method: options.method ?? "GET",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? ({} as P)) });
  // biome-ignore lint/suspicious/noExplicitAny: each response has its own shape
  return { status: response.status, json: (await response.json()) as any };
}

describeEachDatabase("REST /api/v1/consolidation-runs and /api/v1/memory-health", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    routeHarness.consolidationJobs.length = 0;
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
  });

  it("queues a run by hand, which the job then runs; lists, reads, reverts it, and health follows", async () => {
    const extractor = contextFor(use(), me, { actor: { type: "extractor", id: "offline" } });
    const first = await createMemory(extractor, { content: "User lives in Lisbon" });
    const again = await createMemory(extractor, { content: "user lives in Lisbon!" });
    const before = await call(health.GET, { path: "/api/v1/memory-health" });
    expect(before.json).toMatchObject({ memories: 2, duplicates: 1, conflicts: 0, lastConsolidation: null });

    const started = await call(runs.POST, { method: "POST", path: "/api/v1/consolidation-runs", body: {} });
    expect(started.status).toBe(202);
    expect(started.json.run).toMatchObject({ status: "queued", trigger: "manual" });
    const runId = started.json.run.id as string;
    expect(routeHarness.consolidationJobs).toEqual([{ userId: me, runId, trigger: "manual" }]);

    // What the worker does with the job (lib/server/worker.ts), on the offline model.
    const ctx = contextFor(use(), me);
    const model = new OfflineLanguageModel();
    await runConsolidation(
      { ctx, model, modelId: "offline" },
      { jobId: "j1", finalAttempt: true, runId, trigger: "manual" },
    );

    const listed = await call(runs.GET, { path: "/api/v1/consolidation-runs" });
    expect(listed.json).toMatchObject({ runs: [{ id: runId, status: "succeeded", modelCalls: 1 }], nextCursor: null });
    const read = await call(run.GET, { path: `/api/v1/consolidation-runs/${runId}`, params: { id: runId } });
    expect(read.json.run.opsApplied).toMatchObject([{ op: "merge", ids: [first.id, again.id] }]);
    const after = await call(health.GET, { path: "/api/v1/memory-health" });
    expect(after.json).toMatchObject({ memories: 1, duplicates: 0, lastConsolidation: { id: runId } });

    const path = `/api/v1/consolidation-runs/${runId}/revert`;
    const reverted = await call(revert.POST, { method: "POST", path, params: { id: runId } });
    expect(reverted.json.skipped).toEqual([]);
    expect(reverted.json.reverted.sort()).toEqual([again.id, first.id].sort());
    expect((await getMemory(ctx, again.id)).status).toBe("active");
    expect((await call(revert.POST, { method: "POST", path, params: { id: runId } })).status).toBe(409);
  });

  it("answers 404 for another user's run and 422 for a body with fields, writing nothing", async () => {
    const other = await createUser(use());
    const theirs = await runConsolidation(
      { ctx: contextFor(use(), other), model: new OfflineLanguageModel(), modelId: "offline" },
      { jobId: "j2", finalAttempt: true, trigger: "manual" },
    );
    if (theirs.status !== "succeeded") throw new Error(JSON.stringify(theirs));
    const id = theirs.runId;
    expect((await call(run.GET, { path: `/api/v1/consolidation-runs/${id}`, params: { id } })).status).toBe(404);
    const bad = await call(runs.POST, { method: "POST", path: "/api/v1/consolidation-runs", body: { trigger: "x" } });
    expect(bad.status).toBe(422);
    expect(routeHarness.consolidationJobs).toEqual([]);
    expect((await call(runs.GET, { path: "/api/v1/consolidation-runs" })).json.runs).toEqual([]);
  });
});

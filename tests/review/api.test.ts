import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import type { MemoryContext } from "@/lib/memory/core";
import { createMemory, updateMemory } from "@/lib/memory/store";
import { call, principalFor } from "../api-keys/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";

const proposals = await import("@/app/api/v1/proposals/route");
const approve = await import("@/app/api/v1/proposals/[id]/approve/route");
const reject = await import("@/app/api/v1/proposals/[id]/reject/route");
const rules = await import("@/app/api/v1/rules/route");
const rule = await import("@/app/api/v1/rules/[id]/route");
const settings = await import("@/app/api/v1/settings/route");
const { createApiKey } = await import("@/lib/auth/api-keys");
const shapes = await import("@/lib/api/review-requests");
const { errorResponseBody } = await import("@/lib/api/response-schemas");

const callOptions = { toolCallId: "call-1", messages: [], context: {} };

describeEachDatabase("review REST API", (use) => {
  let userId: string;
  let ctx: MemoryContext;
  beforeEach(async () => {
    routeHarness.database = use();
    userId = await createUser(use());
    ctx = contextFor(use(), userId);
    routeHarness.principal = principalFor(userId);
  });

  /** Two model deletes in one turn: the second becomes a pending proposal; returns its id and the memory's. */
  async function pendingDelete(content = "User likes opera") {
    const agent: MemoryContext = { ...ctx, actor: { type: "agent", id: "offline" } };
    const tools = createMemoryTools(agent);
    const first = await createMemory(ctx, { content: `${content} (first)` });
    const memory = await createMemory(ctx, { content });
    await tools.manage_memory.execute?.({ action: "delete", id: first.id }, callOptions);
    const held = (await tools.manage_memory.execute?.({ action: "delete", id: memory.id }, callOptions)) as {
      proposalId: string;
    };
    return { proposalId: held.proposalId, memoryId: memory.id };
  }

  it("reads and changes the review mode (default deletes); a bad value or a key's change is refused", async () => {
    expect(await call(settings.GET, { path: "/api/v1/settings" })).toMatchObject({
      status: 200,
      json: { review: "deletes" },
    });
    const patch = (body: unknown, headers?: Record<string, string>) =>
      call(settings.PATCH, { method: "PATCH", path: "/api/v1/settings", body, headers });
    const changed = await patch({ review: "all" });
    expect(changed).toMatchObject({ status: 200, json: { review: "all" } });
    shapes.settingsResponse.parse(changed.json);
    expect(await patch({ review: "sometimes" })).toMatchObject({
      status: 422,
      json: { error: { code: "unprocessable" } },
    });
    expect((await patch({})).status).toBe(422);
    expect((await patch({ review: "off", extra: 1 })).status).toBe(422);
    const { key } = await createApiKey(
      { database: use(), principal: { userId } },
      { name: "k", scopes: ["read", "write"] },
    );
    routeHarness.principal = null;
    expect((await patch({ review: "off" }, { authorization: `Bearer ${key}` })).status).toBe(403);
    expect(
      await call(settings.GET, { path: "/api/v1/settings", headers: { authorization: `Bearer ${key}` } }),
    ).toMatchObject({
      status: 200,
      json: { review: "all" },
    });
  });

  it("creates, lists and deletes rules; empty text is a 422 and another user's rule a 404", async () => {
    const post = (body: unknown) => call(rules.POST, { method: "POST", path: "/api/v1/rules", body });
    const created = await post({ text: "Never remember anything about my health", terms: ["Health", " diagnosis "] });
    expect(created).toMatchObject({
      status: 201,
      json: { rule: { text: "Never remember anything about my health", terms: ["health", "diagnosis"] } },
    });
    expect((await post({ text: "   " })).status).toBe(422);
    expect((await post({ text: "x", terms: [""] })).status).toBe(422);
    expect((await post({ text: "x", terms: "health" })).status).toBe(422);
    expect((await call(rules.GET, { path: "/api/v1/rules" })).json.rules).toHaveLength(1);
    shapes.ruleResponse.parse(created.json);
    shapes.ruleListResponse.parse((await call(rules.GET, { path: "/api/v1/rules" })).json);

    const id = created.json.rule.id as string;
    routeHarness.principal = principalFor(await createUser(use()));
    const foreign = await call(rule.DELETE, { method: "DELETE", path: `/api/v1/rules/${id}`, params: { id } });
    expect(foreign).toMatchObject({ status: 404, json: { error: { code: "not_found" } } });
    expect((await call(rules.GET, { path: "/api/v1/rules" })).json.rules).toEqual([]);

    routeHarness.principal = principalFor(userId);
    expect((await call(rule.DELETE, { method: "DELETE", path: `/api/v1/rules/${id}`, params: { id } })).status).toBe(
      200,
    );
    expect((await call(rule.DELETE, { method: "DELETE", path: `/api/v1/rules/${id}`, params: { id } })).status).toBe(
      404,
    );
    expect((await call(rule.DELETE, { method: "DELETE", path: "/api/v1/rules/x", params: { id: "x" } })).status).toBe(
      404,
    );
  });

  it("lists proposals by status with keyset paging", async () => {
    for (const content of ["User likes opera", "User likes ballet", "User likes jazz"]) await pendingDelete(content);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?status=pending&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await call(proposals.GET, { path: `/api/v1/proposals${query}` });
      expect(page.status).toBe(200);
      seen.push(...page.json.proposals.map((proposal: { id: string }) => proposal.id));
      cursor = page.json.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(3);
    expect((await call(proposals.GET, { path: "/api/v1/proposals?status=approved" })).json.proposals).toEqual([]);
    expect((await call(proposals.GET, { path: "/api/v1/proposals?status=maybe" })).status).toBe(422);
    expect((await call(proposals.GET, { path: "/api/v1/proposals?cursor=forged" })).status).toBe(422);
  });

  it("approves and rejects; another user's proposal is a 404; a changed memory is a 409 with its current state", async () => {
    const held = await pendingDelete();
    const path = (id: string, verb: string) => `/api/v1/proposals/${id}/${verb}`;
    const approveCall = (id: string, body?: unknown) =>
      call(approve.POST, { method: "POST", path: path(id, "approve"), params: { id }, body });

    routeHarness.principal = principalFor(await createUser(use()));
    expect(await approveCall(held.proposalId)).toMatchObject({ status: 404, json: { error: { code: "not_found" } } });
    const foreignReject = await call(reject.POST, {
      method: "POST",
      path: path(held.proposalId, "reject"),
      params: { id: held.proposalId },
    });
    expect(foreignReject.status).toBe(404);
    routeHarness.principal = principalFor(userId);

    expect((await approveCall(held.proposalId, { content: "edited" })).status).toBe(422);
    await updateMemory(ctx, held.memoryId, { content: "User likes opera a lot" });
    const conflict = await approveCall(held.proposalId);
    expect(conflict).toMatchObject({
      status: 409,
      json: {
        error: { code: "conflict" },
        memory: { id: held.memoryId, version: 2, text: "User likes opera a lot", status: "active" },
        proposal: { id: held.proposalId, status: "pending" },
      },
    });
    errorResponseBody.parse(conflict.json);

    const rejected = await call(reject.POST, {
      method: "POST",
      path: path(held.proposalId, "reject"),
      params: { id: held.proposalId },
      body: { reason: "I still like it" },
    });
    expect(rejected).toMatchObject({
      status: 200,
      json: { proposal: { status: "rejected", decisionReason: "I still like it" } },
    });

    const next = await pendingDelete("User likes ballet");
    const approved = await approveCall(next.proposalId);
    expect(approved).toMatchObject({
      status: 200,
      json: { proposal: { status: "approved" }, memory: { id: next.memoryId, status: "deleted" } },
    });
    shapes.approvedResponse.parse(approved.json);
    shapes.proposalResponse.parse(rejected.json);
    shapes.proposalListResponse.parse((await call(proposals.GET, { path: "/api/v1/proposals" })).json);
    expect((await approveCall(next.proposalId)).status).toBe(409);
  });

  it("refuses a key to approve or reject", async () => {
    const held = await pendingDelete();
    const { key } = await createApiKey(
      { database: use(), principal: { userId } },
      { name: "k", scopes: ["read", "write"] },
    );
    routeHarness.principal = null;
    const headers = { authorization: `Bearer ${key}` };
    const id = held.proposalId;
    expect((await call(approve.POST, { method: "POST", path: `/x/${id}`, params: { id }, headers })).status).toBe(403);
    expect((await call(reject.POST, { method: "POST", path: `/x/${id}`, params: { id }, headers })).status).toBe(403);
    expect((await call(proposals.GET, { path: "/api/v1/proposals", headers })).json.proposals).toHaveLength(1);
  });
});

import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import { LIMITS, type MemoryJson, type MemoryVersionJson } from "@/lib/memory/contract";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const { GET: historyRoute } = await import("@/app/api/v1/memories/[id]/history/route");
const { POST: restoreRoute } = await import("@/app/api/v1/memories/[id]/restore/route");
const itemRoutes = await import("@/app/api/v1/memories/[id]/route");
const collectionRoutes = await import("@/app/api/v1/memories/route");
const { POST: searchRoute } = await import("@/app/api/v1/memories/search/route");

/** The union of the endpoints' response fields; each response carries some of them. */
interface ResponseBody {
  memory: MemoryJson;
  memories: MemoryJson[];
  nextCursor: string | null;
  versions: MemoryVersionJson[];
  results: { memory: MemoryJson; score: number; confidence: number }[];
  error: { code: string; message: string };
}

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

async function call<P>(
  handler: Handler<P>,
  options: { method?: string; path?: string; body?: unknown; rawBody?: string; params?: P } = {},
) {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const request = new Request(`http://localhost${options.path ?? "/api/v1/memories"}`, {
    method: options.method ?? "GET",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body,
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? ({} as P)) });
  return { status: response.status, json: (await response.json()) as ResponseBody };
}

describeEachDatabase("REST /api/v1/memories", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
  });

  const createOne = async (body: Record<string, unknown>) => {
    const response = await call(collectionRoutes.POST, { method: "POST", body });
    expect(response.status).toBe(201);
    return response.json.memory as { id: string; version: number };
  };

  it("creates, reads, updates, deletes, restores and lists history", async () => {
    const created = await call(collectionRoutes.POST, {
      method: "POST",
      body: { content: "I use Neovim", namespace: ["prefs", "editor"], metadata: { source: "test" } },
    });
    expect(created.status).toBe(201);
    const memory = created.json.memory;
    expect(memory).toMatchObject({
      namespace: ["prefs", "editor"],
      kind: "memory",
      content: { content: "I use Neovim" },
      text: "I use Neovim",
      status: "active",
      version: 1,
      metadata: { source: "test" },
      source: { type: "api" },
      actor: { type: "user", id: me },
    });
    expect(Object.keys(memory).sort()).toEqual(
      [
        "actor",
        "content",
        "createdAt",
        "id",
        "key",
        "kind",
        "mergedFrom",
        "mergedInto",
        "metadata",
        "namespace",
        "pinned",
        "source",
        "status",
        "support",
        "text",
        "updatedAt",
        "validFrom",
        "validTo",
        "version",
      ].sort(),
    );
    const params = { id: memory.id };

    expect((await call(itemRoutes.GET, { params })).json.memory.id).toBe(memory.id);
    const patched = await call(itemRoutes.PATCH, {
      method: "PATCH",
      params,
      body: { content: "I use Helix", expectedVersion: 1 },
    });
    expect(patched.json.memory).toMatchObject({ text: "I use Helix", version: 2 });
    expect((await call(itemRoutes.DELETE, { method: "DELETE", params })).json.memory.status).toBe("deleted");
    expect((await call(restoreRoute, { method: "POST", params })).json.memory).toMatchObject({
      status: "active",
      version: 4,
    });
    const history = await call(historyRoute, { params });
    expect(history.json.versions.map((v: { op: string }) => v.op)).toEqual(["create", "update", "delete", "restore"]);
  });

  it("lists with namespace, status, kind, limit and cursor, and searches with q", async () => {
    for (const text of ["alpha note", "beta note", "gamma note"])
      await createOne({ content: text, namespace: ["a", "b"] });
    await createOne({ content: "elsewhere note", namespace: ["c"] });
    const first = await call(collectionRoutes.GET, { path: "/api/v1/memories?namespace=a.b&limit=2" });
    expect(first.json.memories.map((m: { text: string }) => m.text)).toEqual(["gamma note", "beta note"]);
    const next = encodeURIComponent(first.json.nextCursor ?? "");
    const second = await call(collectionRoutes.GET, { path: `/api/v1/memories?namespace=a.b&limit=2&cursor=${next}` });
    expect(second.json).toMatchObject({ nextCursor: null, memories: [{ text: "alpha note" }] });
    const searched = await call(collectionRoutes.GET, { path: "/api/v1/memories?q=gamma" });
    expect(searched.json.memories.map((m: { text: string }) => m.text)).toEqual(["gamma note"]);
    const deleted = await call(collectionRoutes.GET, { path: "/api/v1/memories?status=deleted" });
    expect(deleted.json.memories).toEqual([]);
    const procedures = await call(collectionRoutes.GET, { path: "/api/v1/memories?kind=procedure" });
    expect(procedures.json.memories).toEqual([]);
  });

  it("searches with filters and returns scores", async () => {
    await createOne({ content: "green tea in the morning", metadata: { cups: 2 } });
    await createOne({ content: "black tea after lunch", metadata: { cups: 5 } });
    const response = await call(searchRoute, {
      method: "POST",
      path: "/api/v1/memories/search",
      body: { query: "which tea do I drink?", filter: { cups: { $gte: 3 } }, limit: 5 },
    });
    expect(response.status).toBe(200);
    expect(response.json.results).toHaveLength(1);
    expect(response.json.results[0]?.memory.text).toBe("black tea after lunch");
    expect(response.json.results[0]?.score).toBeGreaterThan(0);
  });

  it("gives each search result its confidence, and minConfidence keeps only hits at least that confident", async () => {
    await createOne({ content: "I drink green tea every morning" });
    await createOne({ content: "Errand: get stamps at the post office before noon" });
    await createOne({ content: "Errand: get batteries at the hardware store before Monday" });
    const search = (body: unknown) => call(searchRoute, { method: "POST", path: "/api/v1/memories/search", body });
    const ranked = await search({ query: "green tea before noon" });
    expect(ranked.status).toBe(200);
    expect(ranked.json.results.length).toBeGreaterThan(1);
    for (const result of ranked.json.results) {
      expect(result.confidence).toBeGreaterThanOrEqual(0);
      expect(result.confidence).toBeLessThanOrEqual(1);
    }
    const floor = LIMITS.confidenceFloor;
    const confident = await search({ query: "green tea before noon", minConfidence: floor });
    expect(confident.json.results.map((result) => result.memory.text)).toEqual(
      ranked.json.results.filter((result) => result.confidence >= floor).map((result) => result.memory.text),
    );
    expect(confident.json.results.map((result) => result.memory.text)).toContain("I drink green tea every morning");
    expect(confident.json.results.length).toBeLessThan(ranked.json.results.length);
    const tattoo = await search({ query: "Where did my sister get the tattoo?", minConfidence: floor });
    expect(tattoo.json.results).toEqual([]);
    const listed = await call(collectionRoutes.GET, {
      path: `/api/v1/memories?q=${encodeURIComponent("green tea before noon")}&minConfidence=${floor}`,
    });
    expect(listed.json.memories.map((memory) => memory.text)).toEqual(
      confident.json.results.map((result) => result.memory.text),
    );
    const invalid = await search({ query: "tea", minConfidence: 1.5 });
    expect(invalid.status).toBe(422);
  });

  it("purges with DELETE ?purge=true", async () => {
    const memory = await createOne({ content: "my PIN is 9911" });
    const response = await call(itemRoutes.DELETE, {
      method: "DELETE",
      path: `/api/v1/memories/${memory.id}?purge=true`,
      params: { id: memory.id },
    });
    expect(response.json.memory).toMatchObject({ status: "deleted", content: null, text: "" });
    const history = await call(historyRoute, { params: { id: memory.id } });
    expect(JSON.stringify(history.json)).not.toContain("9911");
  });

  it("answers 401 without a principal on every endpoint", async () => {
    routeHarness.principal = null;
    const params = { id: crypto.randomUUID() };
    const responses = await Promise.all([
      call(collectionRoutes.GET),
      call(collectionRoutes.POST, { method: "POST", body: { content: "x" } }),
      call(itemRoutes.GET, { params }),
      call(itemRoutes.PATCH, { method: "PATCH", params, body: { content: "x" } }),
      call(itemRoutes.DELETE, { method: "DELETE", params }),
      call(restoreRoute, { method: "POST", params }),
      call(historyRoute, { params }),
      call(searchRoute, { method: "POST", body: { query: "x" } }),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(401);
      expect(response.json.error.code).toBe("unauthorized");
    }
  });

  it("answers 404 for another user's id and for ids that are absent or malformed, never 403", async () => {
    const mine = await createOne({ content: "private" });
    routeHarness.principal = principalFor(await createUser(use()));
    for (const id of [mine.id, crypto.randomUUID(), "nope"]) {
      const params = { id };
      const responses = await Promise.all([
        call(itemRoutes.GET, { params }),
        call(itemRoutes.PATCH, { method: "PATCH", params, body: { content: "stolen" } }),
        call(itemRoutes.DELETE, { method: "DELETE", params }),
        call(itemRoutes.DELETE, { method: "DELETE", params, path: `/api/v1/memories/${id}?purge=true` }),
        call(restoreRoute, { method: "POST", params }),
        call(historyRoute, { params }),
      ]);
      for (const response of responses)
        expect(response).toMatchObject({ status: 404, json: { error: { code: "not_found" } } });
    }
    routeHarness.principal = principalFor(me);
    expect((await call(itemRoutes.GET, { params: { id: mine.id } })).json.memory.version).toBe(1);
  });

  it("answers 409 for a stale expectedVersion", async () => {
    const memory = await createOne({ content: "v1" });
    const params = { id: memory.id };
    await call(itemRoutes.PATCH, { method: "PATCH", params, body: { content: "v2" } });
    const stale = await call(itemRoutes.PATCH, {
      method: "PATCH",
      params,
      body: { content: "v3", expectedVersion: 1 },
    });
    expect(stale).toMatchObject({ status: 409, json: { error: { code: "conflict" } } });
  });

  it("answers 400 for malformed or missing JSON", async () => {
    const malformed = await call(collectionRoutes.POST, { method: "POST", rawBody: "{not json" });
    expect(malformed).toMatchObject({ status: 400, json: { error: { code: "bad_request" } } });
    const empty = await call(searchRoute, { method: "POST" });
    expect(empty.status).toBe(400);
  });

  it("answers 413 for a body over 64 KB and for content over 32 KB", async () => {
    const huge = await call(collectionRoutes.POST, { method: "POST", body: { content: "x".repeat(70 * 1024) } });
    expect(huge).toMatchObject({ status: 413, json: { error: { code: "payload_too_large" } } });
    const bigContent = await call(collectionRoutes.POST, { method: "POST", body: { content: "x".repeat(40 * 1024) } });
    expect(bigContent).toMatchObject({ status: 413, json: { error: { code: "payload_too_large" } } });
  });

  it("answers 422 for unknown fields, invalid namespaces, kinds, queries and content", async () => {
    const cases = [
      call(collectionRoutes.POST, { method: "POST", body: { content: "x", owner: "someone" } }),
      call(collectionRoutes.POST, { method: "POST", body: { content: "x", namespace: ["a.b"] } }),
      call(collectionRoutes.POST, { method: "POST", body: { content: "x", kind: "unknown-kind" } }),
      call(collectionRoutes.POST, { method: "POST", body: { kind: "preference", content: { colour: "red" } } }),
      call(collectionRoutes.POST, { method: "POST", body: { kind: "memory" } }),
      call(collectionRoutes.GET, { path: "/api/v1/memories?namespace=a..b" }),
      call(collectionRoutes.GET, { path: "/api/v1/memories?status=gone" }),
      call(collectionRoutes.GET, { path: "/api/v1/memories?userId=other" }),
      call(collectionRoutes.GET, { path: "/api/v1/memories?cursor=bogus" }),
      call(searchRoute, { method: "POST", body: { query: "x", filter: { a: { $where: "1" } } } }),
      call(searchRoute, { method: "POST", body: { query: "x", namespace: ["users"], userId: "x" } }),
      call(itemRoutes.PATCH, { method: "PATCH", params: { id: crypto.randomUUID() }, body: { status: "active" } }),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response).toMatchObject({ status: 422, json: { error: { code: "unprocessable" } } });
    }
  });
});

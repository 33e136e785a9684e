import "../support/route-mocks";
import { Client } from "@langchain/langgraph-sdk";
import { beforeEach, expect, it } from "vitest";
import { MAX_SEARCH_OFFSET } from "@/lib/langgraph/requests";
import { listItemNamespaces } from "@/lib/langgraph/store";
import { createMemories } from "@/lib/memory/store";
import { routeFetch } from "../api-keys/dispatch";
import { call, principalFor } from "../api-keys/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";

const items = await import("@/app/api/langgraph/store/items/route");
const search = await import("@/app/api/langgraph/store/items/search/route");
const namespaces = await import("@/app/api/langgraph/store/namespaces/route");
const keys = await import("@/app/api/v1/keys/route");
const memories = await import("@/app/api/v1/memories/route");
const history = await import("@/app/api/v1/memories/[id]/history/route");
const item = await import("@/app/api/v1/memories/[id]/route");

const fetchRoutes = routeFetch({
  "/api/langgraph/store/items": { GET: items.GET, PUT: items.PUT, DELETE: items.DELETE },
  "/api/langgraph/store/items/search": { POST: search.POST },
  "/api/langgraph/store/namespaces": { POST: namespaces.POST },
});

const clientFor = (apiKey: string) =>
  new Client({
    apiUrl: "http://memory.test/api/langgraph",
    apiKey,
    callerOptions: { fetch: fetchRoutes, maxRetries: 0 },
  });

async function issueKey(userId: string, scopes: ("read" | "write")[] = ["read", "write"]) {
  routeHarness.principal = principalFor(userId);
  const response = await call(keys.POST, { method: "POST", body: { name: "langgraph", scopes } });
  routeHarness.principal = null;
  return response.json as { id: string; key: string };
}

const httpStatus = async (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: { status?: number }) => error.status,
  );

describeEachDatabase("LangGraph store API with the real SDK client", (use) => {
  let owner: string;
  let key: { id: string; key: string };

  beforeEach(async () => {
    routeHarness.database = use();
    owner = await createUser(use());
    key = await issueKey(owner);
  });

  it("puts, gets, searches (filter and query), lists namespaces and deletes", async () => {
    const client = clientFor(key.key);
    await client.store.putItem(["prefs", "editor"], "choice", { content: "I use Neovim with a dark theme" });
    await client.store.putItem(["prefs", "editor"], "font", { family: "Iosevka", size: 14, ligatures: true });
    await client.store.putItem(["projects"], "ledger", { name: "Memory Ledger", priority: 3, status: "active" });
    await client.store.putItem(["projects"], "garden", { name: "Garden planner", priority: 1, status: "paused" });

    const item = await client.store.getItem(["prefs", "editor"], "font");
    expect(item).toMatchObject({
      namespace: ["prefs", "editor"],
      key: "font",
      value: { family: "Iosevka", size: 14, ligatures: true },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await client.store.getItem(["prefs", "editor"], "missing")).toBeNull();

    const filtered = await client.store.searchItems(["projects"], { filter: { priority: { $gte: 2 } } });
    expect(filtered.items.map((found) => found.key)).toEqual(["ledger"]);
    const byStatus = await client.store.searchItems([], { filter: { status: "paused" } });
    expect(byStatus.items.map((found) => found.key)).toEqual(["garden"]);

    const queried = await client.store.searchItems(["prefs"], { query: "which editor theme do I like?" });
    expect(queried.items[0]).toMatchObject({ key: "choice", score: expect.any(Number) });

    const listed = await client.store.listNamespaces();
    expect(listed.namespaces).toEqual([["prefs", "editor"], ["projects"]]);
    const shallow = await client.store.listNamespaces({ prefix: ["prefs"], maxDepth: 1 });
    expect(shallow.namespaces).toEqual([["prefs"]]);

    await client.store.deleteItem(["projects"], "garden");
    expect(await client.store.getItem(["projects"], "garden")).toBeNull();
    const afterDelete = await client.store.searchItems(["projects"]);
    expect(afterDelete.items.map((found) => found.key)).toEqual(["ledger"]);
  });

  it("lists namespaces by offset and limit over keyset pages: every namespace once, in order", async () => {
    const all = Array.from({ length: 7 }, (_, i) => ["n", `s${i}`]);
    await createMemories(
      contextFor(use(), owner),
      all.map((namespace) => ({ content: "x", namespace })),
    );
    const client = clientFor(key.key);
    const windows: string[][] = [];
    for (let offset = 0; offset < all.length + 3; offset += 3) {
      windows.push(...(await client.store.listNamespaces({ limit: 3, offset })).namespaces);
    }
    expect(windows).toEqual(all);
    // A window wider than one page of the keyset list is read over several pages.
    const input = { limit: 4, offset: 2 };
    expect(await listItemNamespaces(contextFor(use(), owner), input, 2)).toEqual(all.slice(2, 6));
    expect(await listItemNamespaces(contextFor(use(), owner), { limit: 5, offset: 5 }, 2)).toEqual(all.slice(5));
  });

  it("stores items as ordinary memories with versions and api provenance, visible to REST", async () => {
    const client = clientFor(key.key);
    await client.store.putItem(["notes"], "tea", { content: "Prefers green tea" });
    await client.store.putItem(["notes"], "tea", { content: "Prefers oolong now" });
    await client.store.deleteItem(["notes"], "tea");
    await client.store.putItem(["notes"], "tea", { content: "Back to green tea" });

    routeHarness.principal = principalFor(owner);
    const listed = await call(memories.GET, { path: "/api/v1/memories?namespace=notes" });
    const [memory] = listed.json.memories;
    expect(memory).toMatchObject({
      namespace: ["notes"],
      key: "tea",
      kind: "memory",
      content: { content: "Back to green tea" },
      actor: { type: "api", id: key.id },
      source: { type: "api" },
    });
    const versions = await call(history.GET, { params: { id: memory.id } });
    expect(versions.json.versions.map((version: { op: string }) => version.op)).toEqual([
      "create",
      "update",
      "delete",
      "restore",
      "update",
    ]);
  });

  it("puts a key again after its memory was purged: the item comes back with only the new value", async () => {
    const client = clientFor(key.key);
    await client.store.putItem(["notes"], "secret", { content: "Door code is 4711" });
    routeHarness.principal = principalFor(owner);
    const [memory] = (await call(memories.GET, { path: "/api/v1/memories?namespace=notes" })).json.memories;
    const purged = await call(item.DELETE, {
      method: "DELETE",
      path: `/api/v1/memories/${memory.id}?purge=true`,
      params: { id: memory.id },
    });
    expect(purged.status).toBe(200);
    routeHarness.principal = null;

    await client.store.putItem(["notes"], "secret", { content: "Door code changed" });
    expect((await client.store.getItem(["notes"], "secret"))?.value).toEqual({ content: "Door code changed" });
    routeHarness.principal = principalFor(owner);
    const versions = await call(history.GET, { params: { id: memory.id } });
    expect(versions.json.versions.map((version: { op: string }) => version.op)).toEqual([
      "create",
      "purge",
      "restore",
      "update",
    ]);
    expect(JSON.stringify(versions.json)).not.toContain("4711");
  });

  it("rejects empty or dotted labels with 422 and writes nothing", async () => {
    const client = clientFor(key.key);
    const raw = (path: string, init: RequestInit) =>
      fetchRoutes(`http://memory.test/api/langgraph${path}`, {
        ...init,
        headers: { "x-api-key": key.key, "content-type": "application/json" },
      });
    const put = await raw("/store/items", {
      method: "PUT",
      body: JSON.stringify({ namespace: ["a", ""], key: "k", value: { x: 1 } }),
    });
    expect(put.status).toBe(422);
    const dotted = await raw("/store/items", {
      method: "PUT",
      body: JSON.stringify({ namespace: ["a.b"], key: "k", value: { x: 1 } }),
    });
    expect(dotted.status).toBe(422);
    expect((await raw("/store/items?namespace=a..b&key=k", { method: "GET" })).status).toBe(422);
    expect((await raw("/store/items?key=k", { method: "GET" })).status).toBe(422);
    expect((await client.store.listNamespaces()).namespaces).toEqual([]);
  });

  it("a second key sees none of the first key's items through any call", async () => {
    const first = clientFor(key.key);
    await first.store.putItem(["shared", "name"], "secret", { content: "The launch code is 0000" });
    const stranger = await createUser(use());
    const second = clientFor((await issueKey(stranger)).key);

    expect(await second.store.getItem(["shared", "name"], "secret")).toBeNull();
    expect((await second.store.searchItems([])).items).toEqual([]);
    expect((await second.store.searchItems(["shared"], { query: "launch code" })).items).toEqual([]);
    expect((await second.store.listNamespaces()).namespaces).toEqual([]);
    await second.store.deleteItem(["shared", "name"], "secret");
    await second.store.putItem(["shared", "name"], "secret", { content: "overwritten?" });

    expect(await first.store.getItem(["shared", "name"], "secret")).toMatchObject({
      value: { content: "The launch code is 0000" },
    });
    expect((await second.store.getItem(["shared", "name"], "secret"))?.value).toEqual({ content: "overwritten?" });
  });

  it("needs a valid key with the right scope", async () => {
    expect(await httpStatus(clientFor(`ml_${"B".repeat(43)}`).store.listNamespaces())).toBe(401);
    const readOnly = clientFor((await issueKey(owner, ["read"])).key);
    expect(await httpStatus(readOnly.store.putItem(["a"], "k", { x: 1 }))).toBe(403);
    expect(await httpStatus(readOnly.store.deleteItem(["a"], "k"))).toBe(403);
    expect(await httpStatus(readOnly.store.searchItems([]))).toBe(200);
  });

  it("pages a listing up to an offset of 1,000 and refuses a larger offset with 422", async () => {
    const total = MAX_SEARCH_OFFSET + 3;
    const ctx = contextFor(use(), owner);
    for (let start = 0; start < total; start += 500) {
      const count = Math.min(500, total - start);
      await createMemories(
        ctx,
        Array.from({ length: count }, (_, index) => ({
          namespace: ["bulk"],
          key: `item-${start + index}`,
          content: `bulk item ${start + index}`,
        })),
      );
    }
    const client = clientFor(key.key);
    const last = await client.store.searchItems(["bulk"], { offset: MAX_SEARCH_OFFSET, limit: 10 });
    expect(last.items).toHaveLength(3);
    const around = await client.store.searchItems(["bulk"], { offset: MAX_SEARCH_OFFSET - 2, limit: 5 });
    expect(around.items.slice(2).map((found) => found.key)).toEqual(last.items.map((found) => found.key));
    expect(new Set(around.items.map((found) => found.key)).size).toBe(5);

    for (const offset of [MAX_SEARCH_OFFSET + 1, 10_000]) {
      const response = await fetchRoutes("http://memory.test/api/langgraph/store/items/search", {
        method: "POST",
        headers: { "x-api-key": key.key, "content-type": "application/json" },
        body: JSON.stringify({ namespace_prefix: ["bulk"], offset, limit: 100 }),
      });
      expect(response.status, `offset ${offset}`).toBe(422);
      expect(await response.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });
});

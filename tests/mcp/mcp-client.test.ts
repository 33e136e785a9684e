import "../support/route-mocks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { asSchema, type FlexibleSchema } from "ai";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import { memories } from "@/lib/db/schema";
import { LIMITS, manageMemoryOutput, memoryHit } from "@/lib/memory/contract";
import { routeFetch } from "../api-keys/dispatch";
import { call, principalFor } from "../api-keys/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";
import { startRouteServer } from "../support/route-server";

const mcp = await import("@/app/api/mcp/route");
const keys = await import("@/app/api/v1/keys/route");
const fetchRoutes = routeFetch({ "/api/mcp": { POST: mcp.POST, GET: mcp.GET, DELETE: mcp.DELETE } });

async function issueKey(userId: string, scopes: ("read" | "write")[] = ["read", "write"]) {
  routeHarness.principal = principalFor(userId);
  const response = await call(keys.POST, { method: "POST", body: { name: "mcp", scopes } });
  routeHarness.principal = null;
  return response.json as { id: string; key: string };
}

const clients: Client[] = [];

async function connect(apiKey: string) {
  const client = new Client({ name: "memory-ledger-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://memory.test/api/mcp"), {
    fetch: fetchRoutes,
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** The JSON a tool returned as its text content. */
function payload(result: Awaited<ReturnType<Client["callTool"]>>) {
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first?.text ?? "null");
}

describeEachDatabase("MCP server with the real MCP client", (use) => {
  let owner: string;

  beforeEach(async () => {
    routeHarness.database = use();
    owner = await createUser(use());
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it("lists tools with input schemas and descriptions", async () => {
    const client = await connect((await issueKey(owner)).key);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "add_memory",
      "delete_memory",
      "get_memory",
      "list_memories",
      "manage_memory",
      "search_memories",
      "search_memory",
      "update_memory",
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe("object");
    }
    const search = tools.find((tool) => tool.name === "search_memories");
    expect(search?.inputSchema.required).toEqual(["query"]);
  });

  it("offers the chat's tools under the chat's names, schemas and descriptions; every other name is deprecated", async () => {
    const client = await connect((await issueKey(owner)).key);
    const { tools } = await client.listTools();
    const chat = createMemoryTools(contextFor(use(), owner));
    const current = tools.filter((tool) => !tool.description?.startsWith("Deprecated"));
    expect(current.map((tool) => tool.name).sort()).toEqual(Object.keys(chat).sort());
    for (const [name, chatTool] of Object.entries(chat)) {
      const offered = current.find((tool) => tool.name === name)!;
      expect(offered.description, name).toBe(chatTool.description);
      const { $schema: _mcp, ...mcpSchema } = offered.inputSchema as Record<string, unknown>;
      const { $schema: _chat, ...chatSchema } = (await asSchema(chatTool.inputSchema as FlexibleSchema<unknown>)
        .jsonSchema) as Record<string, unknown>;
      expect(mcpSchema, name).toEqual(chatSchema);
    }
    for (const tool of tools.filter((tool) => !current.includes(tool))) {
      expect(tool.description, tool.name).toMatch(
        /^Deprecated \(kept for configured clients\): use (manage|search)_memory/,
      );
    }
  });

  it("manages and searches with the chat's tools, answering in the model-facing memory shape", async () => {
    const client = await connect((await issueKey(owner)).key);
    const created = payload(
      await client.callTool({
        name: "manage_memory",
        arguments: { action: "create", content: "User lives in Toronto", validFrom: "2018-01-01" },
      }),
    );
    expect(manageMemoryOutput.parse(created)).toMatchObject({
      action: "created",
      text: "User lives in Toronto",
      namespace: [],
      validFrom: "2018-01-01T00:00:00.000Z",
      version: 1,
    });
    const again = payload(
      await client.callTool({
        name: "manage_memory",
        arguments: { action: "create", content: "User lives in Toronto" },
      }),
    );
    expect(again).toMatchObject({ action: "unchanged", id: created.id });

    const moved = payload(
      await client.callTool({
        name: "manage_memory",
        arguments: { action: "update", id: created.id, content: "User lives in Vancouver", validFrom: "2025-11-01" },
      }),
    );
    expect(moved).toMatchObject({ action: "superseded", supersededId: created.id, text: "User lives in Vancouver" });
    const hits = payload(
      await client.callTool({ name: "search_memory", arguments: { query: "where does the user live" } }),
    );
    expect(hits.map((hit: unknown) => memoryHit.parse(hit).id)).toEqual([moved.id]);
    const then = payload(
      await client.callTool({
        name: "search_memory",
        arguments: { query: "where does the user live", asOf: "2020-01-01" },
      }),
    );
    expect(then).toEqual([expect.objectContaining({ id: created.id, validTo: "2025-11-01T00:00:00.000Z" })]);

    const deleted = payload(
      await client.callTool({ name: "manage_memory", arguments: { action: "delete", id: moved.id } }),
    );
    expect(deleted).toMatchObject({ action: "deleted", id: moved.id });
    const [row] = await use().unbound.db.select().from(memories).where(eq(memories.id, created.id));
    expect(row).toMatchObject({ actorType: "api" });

    const refused = await client.callTool({ name: "manage_memory", arguments: { action: "create", colour: "red" } });
    expect(refused.isError).toBe(true);
    const readOnly = await connect((await issueKey(owner, ["read"])).key);
    const write = await readOnly.callTool({ name: "manage_memory", arguments: { action: "create", content: "x" } });
    expect(write.isError).toBe(true);
    expect((write.content as { text: string }[])[0]?.text).toContain('lacks the "write" scope');
  });

  it("a client calling the old names still succeeds, on the same memories the new names see", async () => {
    const client = await connect((await issueKey(owner)).key);
    const { memory } = payload(
      await client.callTool({ name: "add_memory", arguments: { content: "User drinks oolong tea" } }),
    );
    const found = payload(await client.callTool({ name: "search_memory", arguments: { query: "oolong tea" } }));
    expect(found.map((hit: { id: string }) => hit.id)).toEqual([memory.id]);
    expect(found[0].confidence).toBeGreaterThanOrEqual(LIMITS.confidenceFloor);
    const created = payload(
      await client.callTool({ name: "manage_memory", arguments: { action: "create", content: "User plays chess" } }),
    );
    const searched = payload(await client.callTool({ name: "search_memories", arguments: { query: "chess" } }));
    expect(searched.results.map((result: { memory: { id: string } }) => result.memory.id)).toEqual([created.id]);
    expect(searched.results[0].confidence).toBeGreaterThanOrEqual(LIMITS.confidenceFloor);
    const unanswered = payload(
      await client.callTool({
        name: "search_memories",
        arguments: { query: "chess tattoo opera", minConfidence: 1 },
      }),
    );
    expect(unanswered.results).toEqual([]);
    const removed = payload(await client.callTool({ name: "delete_memory", arguments: { id: created.id } }));
    expect(removed.memory).toMatchObject({ id: created.id, status: "deleted" });
  });

  it("adds, searches, gets, updates, lists and deletes inside the key owner's root", async () => {
    const key = await issueKey(owner);
    const client = await connect(key.key);
    const added = payload(
      await client.callTool({
        name: "add_memory",
        arguments: { content: "My favourite editor is Zed", namespace: ["prefs"] },
      }),
    );
    expect(added.memory).toMatchObject({
      namespace: ["prefs"],
      kind: "memory",
      actor: { type: "api", id: key.id },
      source: { type: "api" },
    });
    const id = added.memory.id;

    const found = payload(await client.callTool({ name: "search_memories", arguments: { query: "which editor?" } }));
    expect(found.results[0]).toMatchObject({ memory: { id }, score: expect.any(Number) });

    const updated = payload(
      await client.callTool({
        name: "update_memory",
        arguments: { id, content: "My favourite editor is Helix", expectedVersion: 1 },
      }),
    );
    expect(updated.memory).toMatchObject({ version: 2, content: { content: "My favourite editor is Helix" } });

    const stale = await client.callTool({ name: "update_memory", arguments: { id, content: "x", expectedVersion: 1 } });
    expect(stale.isError).toBe(true);

    expect(payload(await client.callTool({ name: "get_memory", arguments: { id } })).memory.version).toBe(2);
    const listed = payload(await client.callTool({ name: "list_memories", arguments: {} }));
    expect(listed.memories.map((memory: { id: string }) => memory.id)).toEqual([id]);

    const deleted = payload(await client.callTool({ name: "delete_memory", arguments: { id, reason: "asked to" } }));
    expect(deleted.memory.status).toBe("deleted");
    const afterDelete = payload(await client.callTool({ name: "search_memories", arguments: { query: "editor" } }));
    expect(afterDelete.results).toEqual([]);
  });

  it("supersedes a fact that changed in the world, and searches asOf a date", async () => {
    const client = await connect((await issueKey(owner)).key);
    const toronto = payload(
      await client.callTool({
        name: "add_memory",
        arguments: { content: "User lives in Toronto", validFrom: "2018-01-01" },
      }),
    ).memory;
    const moved = payload(
      await client.callTool({
        name: "update_memory",
        arguments: { id: toronto.id, content: "User lives in Vancouver", validFrom: "2025-11-01", expectedVersion: 1 },
      }),
    );
    expect(moved.superseded).toMatchObject({
      id: toronto.id,
      text: "User lives in Toronto",
      validTo: "2025-11-01T00:00:00.000Z",
    });
    expect(moved.memory).toMatchObject({ text: "User lives in Vancouver", validFrom: "2025-11-01T00:00:00.000Z" });

    const now = payload(
      await client.callTool({ name: "search_memories", arguments: { query: "where does the user live" } }),
    );
    expect(now.results.map((r: { memory: { id: string } }) => r.memory.id)).toEqual([moved.memory.id]);
    const then = payload(
      await client.callTool({
        name: "search_memories",
        arguments: { query: "where does the user live", asOf: "2020-01-01" },
      }),
    );
    expect(then.results.map((r: { memory: { id: string } }) => r.memory.id)).toEqual([toronto.id]);
    const bad = await client.callTool({ name: "search_memories", arguments: { query: "live", asOf: "yesterday" } });
    expect(bad.isError).toBe(true);

    const pinned = payload(
      await client.callTool({ name: "update_memory", arguments: { id: moved.memory.id, pinned: true } }),
    );
    expect(pinned.memory).toMatchObject({ pinned: true });
  });

  it("another key cannot see or touch the first key's memories", async () => {
    const first = await connect((await issueKey(owner)).key);
    const { memory } = payload(
      await first.callTool({ name: "add_memory", arguments: { content: "Secret: I am allergic to cats" } }),
    );
    const second = await connect((await issueKey(await createUser(use()))).key);
    const searched = payload(await second.callTool({ name: "search_memories", arguments: { query: "allergic cats" } }));
    expect(searched.results).toEqual([]);
    expect(payload(await second.callTool({ name: "list_memories", arguments: {} })).memories).toEqual([]);
    for (const name of ["get_memory", "delete_memory"]) {
      const result = await second.callTool({ name, arguments: { id: memory.id } });
      expect(result.isError, name).toBe(true);
    }
    expect(payload(await first.callTool({ name: "get_memory", arguments: { id: memory.id } })).memory.status).toBe(
      "active",
    );
  });

  it("a read-only key can read but its writes are tool errors", async () => {
    const client = await connect((await issueKey(owner, ["read"])).key);
    const added = await client.callTool({ name: "add_memory", arguments: { content: "should not be saved" } });
    expect(added.isError).toBe(true);
    expect((added.content as { text: string }[])[0]?.text).toContain('lacks the "write" scope');
    const listed = payload(await client.callTool({ name: "list_memories", arguments: {} }));
    expect(listed.memories).toEqual([]);
  });

  it("invalid arguments are rejected without writing", async () => {
    const client = await connect((await issueKey(owner)).key);
    const result = await client.callTool({ name: "add_memory", arguments: { content: "" } });
    expect(result.isError).toBe(true);
    expect(payload(await client.callTool({ name: "list_memories", arguments: {} })).memories).toEqual([]);
  });

  it("refuses a request without a valid key with 401 JSON", async () => {
    const response = await fetchRoutes("http://memory.test/api/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: "Bearer nope",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "unauthorized" } });
  });

  it("refuses a JSON-RPC batch over HTTP with 400 and runs none of its calls", async () => {
    const { key } = await issueKey(owner);
    const server = await startRouteServer({ "/api/mcp": mcp });
    try {
      const add = (id: number, content: string) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "add_memory", arguments: { content } },
      });
      const response = await fetch(`${server.origin}/api/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-03-26",
          authorization: `Bearer ${key}`,
        },
        body: JSON.stringify([add(1, "first batched memory"), add(2, "second batched memory")]),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: expect.stringContaining("batch") },
        id: null,
      });
    } finally {
      await server.close();
    }
    const written = await use().unbound.db.select().from(memories).where(eq(memories.userId, owner));
    expect(written).toEqual([]);
  });
});

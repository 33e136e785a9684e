import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { guestWithKey } from "./api-support";

async function connect(origin: string, apiKey: string) {
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  return client;
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  JSON.parse((result.content as { text: string }[])[0]?.text ?? "null");

test("the MCP TypeScript client lists tools, saves, searches and deletes memories", async ({ page, baseURL }) => {
  const { key } = await guestWithKey(page);
  const client = await connect(baseURL as string, key);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        "manage_memory",
        "search_memory",
        // Deprecated names, kept for clients configured with them.
        "add_memory",
        "search_memories",
        "get_memory",
        "update_memory",
        "delete_memory",
        "list_memories",
      ]),
    );

    const memory = textOf(
      await client.callTool({
        name: "manage_memory",
        arguments: { action: "create", content: "I take my coffee black" },
      }),
    );
    expect(memory).toMatchObject({ action: "created", kind: "memory", text: "I take my coffee black" });

    const found = textOf(
      await client.callTool({ name: "search_memory", arguments: { query: "how do I like coffee?" } }),
    );
    expect(found[0].id).toBe(memory.id);
    // A client configured with the old names still gets its answers.
    const old = textOf(await client.callTool({ name: "search_memories", arguments: { query: "coffee" } }));
    expect(old.results[0].memory).toMatchObject({ id: memory.id, actor: { type: "api" } });

    const deleted = textOf(
      await client.callTool({ name: "manage_memory", arguments: { action: "delete", id: memory.id } }),
    );
    expect(deleted.action).toBe("deleted");
    const after = textOf(await client.callTool({ name: "search_memory", arguments: { query: "coffee" } }));
    expect(after).toEqual([]);

    const history = await page.request.get(`/api/v1/memories/${memory.id}/history`);
    const ops = ((await history.json()) as { versions: { op: string }[] }).versions.map((version) => version.op);
    expect(ops).toEqual(["create", "delete"]);
  } finally {
    await client.close();
  }
});

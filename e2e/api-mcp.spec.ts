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

test("the MCP TypeScript client lists tools, adds, searches and deletes memories", async ({ page, baseURL }) => {
  const { key } = await guestWithKey(page);
  const client = await connect(baseURL as string, key);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        "add_memory",
        "search_memories",
        "get_memory",
        "update_memory",
        "delete_memory",
        "list_memories",
      ]),
    );

    const { memory } = textOf(
      await client.callTool({ name: "add_memory", arguments: { content: "I take my coffee black" } }),
    );
    expect(memory).toMatchObject({ kind: "memory", actor: { type: "api" } });

    const found = textOf(
      await client.callTool({ name: "search_memories", arguments: { query: "how do I like coffee?" } }),
    );
    expect(found.results[0].memory.id).toBe(memory.id);

    const deleted = textOf(await client.callTool({ name: "delete_memory", arguments: { id: memory.id } }));
    expect(deleted.memory.status).toBe("deleted");
    const after = textOf(await client.callTool({ name: "search_memories", arguments: { query: "coffee" } }));
    expect(after.results).toEqual([]);

    const history = await page.request.get(`/api/v1/memories/${memory.id}/history`);
    const ops = ((await history.json()) as { versions: { op: string }[] }).versions.map((version) => version.op);
    expect(ops).toEqual(["create", "delete"]);
  } finally {
    await client.close();
  }
});

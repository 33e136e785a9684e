import "../support/route-mocks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, it } from "vitest";
import { createRule, listMemories } from "@/lib/memory/store";
import { routeFetch } from "../api-keys/dispatch";
import { call, principalFor } from "../api-keys/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";

const mcp = await import("@/app/api/mcp/route");
const keys = await import("@/app/api/v1/keys/route");
const fetchRoutes = routeFetch({ "/api/mcp": { POST: mcp.POST, GET: mcp.GET, DELETE: mcp.DELETE } });

describeEachDatabase("rules over MCP", (use) => {
  it("an MCP add_memory naming a rule's term is refused with the rule's words, and nothing is written", async () => {
    routeHarness.database = use();
    const owner = await createUser(use());
    await createRule(contextFor(use(), owner), { text: "Nothing about my health", terms: ["health"] });
    routeHarness.principal = principalFor(owner);
    const { key } = (await call(keys.POST, { method: "POST", body: { name: "mcp", scopes: ["read", "write"] } }))
      .json as { key: string };
    routeHarness.principal = null;
    const client = new Client({ name: "review-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://memory.test/api/mcp"), {
        fetch: fetchRoutes,
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: "add_memory", arguments: { content: "User's health is good" } });
      expect(result.isError).toBe(true);
      const [first] = result.content as Array<{ text: string }>;
      expect(first?.text).toMatch(/breaks the user's rule "Nothing about my health"/);
      expect((await listMemories(contextFor(use(), owner), { status: "all" })).memories).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

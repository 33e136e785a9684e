import "../support/route-mocks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import { editMemory } from "@/lib/console/mutations";
import { LIMITS } from "@/lib/memory/contract";
import { createMemory, listMemories } from "@/lib/memory/store";
import { routeFetch } from "../api-keys/dispatch";
import { call, principalFor } from "../api-keys/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";
import { contextFor, createUser } from "./support";

const memories = await import("@/app/api/v1/memories/route");
const items = await import("@/app/api/langgraph/store/items/route");
const mcpRoute = await import("@/app/api/mcp/route");
const keys = await import("@/app/api/v1/keys/route");
const fetchMcp = routeFetch({ "/api/mcp": { POST: mcpRoute.POST } });

/** A failure as every surface reports it: the code where it has one, and the message. */
interface Refusal {
  code?: string;
  message: string;
}

const TOO_DEEP = Array.from({ length: LIMITS.namespaceDepth + 1 }, (_, index) => `n${index}`);
const TOO_LONG = "a".repeat(LIMITS.memoryTextChars + 1);
const TOO_BIG = "a".repeat(LIMITS.contentBytes + 10);

// The same over-limit input gets the same error from every surface that accepts it, because each validates through
// the core's input fields and limits.
describeEachDatabase("one set of limits", (use) => {
  let me: string;
  let key: string;
  let mcp: Client;

  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
    key = (
      (await call(keys.POST, { method: "POST", body: { name: "limits", scopes: ["read", "write"] } })).json as {
        key: string;
      }
    ).key;
    mcp = new Client({ name: "limits", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL("http://memory.test/api/mcp"), {
        fetch: fetchMcp,
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
  });
  afterEach(async () => {
    await mcp.close();
  });

  const rest = async (body: unknown): Promise<Refusal> =>
    ((await call(memories.POST, { method: "POST", body })).json as { error: Refusal }).error;
  const langgraph = async (namespace: string[], value: unknown): Promise<Refusal> =>
    (
      (
        await call(items.PUT, {
          method: "PUT",
          path: "/api/langgraph/store/items",
          body: { namespace, key: "k", value },
          headers: { "x-api-key": key },
        })
      ).json as { error: Refusal }
    ).error;
  const mcpAdd = async (args: Record<string, unknown>): Promise<Refusal> => {
    const result = await mcp.callTool({ name: "add_memory", arguments: args });
    expect(result.isError).toBe(true);
    return { message: (result.content as Array<{ text: string }>)[0]?.text ?? "" };
  };
  const chatTool = async (content: string): Promise<Refusal> => {
    const tools = createMemoryTools(contextFor(use(), me));
    const options = { toolCallId: "t", messages: [], context: {} };
    try {
      await (tools.manage_memory.execute?.({ action: "create", content }, options) as Promise<unknown>);
    } catch (error) {
      return { message: (error as Error).message };
    }
    throw new Error("the chat tool accepted it");
  };
  const consoleEdit = async (content: string): Promise<Refusal> => {
    const memory = await createMemory(contextFor(use(), me), { content: "short" });
    const result = await editMemory(contextFor(use(), me), { id: memory.id, expectedVersion: 1, content: { content } });
    if (result.ok) throw new Error("the edit was accepted");
    return { code: result.error.code, message: result.error.message };
  };

  it("a namespace one segment too deep: REST, LangGraph and MCP say the same", async () => {
    const expected = { code: "unprocessable", message: `A namespace has at most ${LIMITS.namespaceDepth} segments.` };
    expect(await rest({ content: "x", namespace: TOO_DEEP })).toMatchObject(expected);
    expect(await langgraph(TOO_DEEP, { content: "x" })).toMatchObject(expected);
    expect(await mcpAdd({ content: "x", namespace: TOO_DEEP })).toEqual({ message: expected.message });
  });

  it("a memory text one character too long: REST, LangGraph, MCP, the chat tool and the console say the same", async () => {
    const expected = { code: "unprocessable", message: 'Content does not match kind "memory".' };
    expect(await rest({ content: TOO_LONG })).toMatchObject(expected);
    expect(await langgraph([], { content: TOO_LONG })).toMatchObject(expected);
    expect(await mcpAdd({ content: TOO_LONG })).toEqual({ message: expected.message });
    expect(await chatTool(TOO_LONG)).toEqual({ message: expected.message });
    expect(await consoleEdit(TOO_LONG)).toEqual(expected);
  });

  it("content over the byte limit is 413 with the same message everywhere", async () => {
    const bytes = Buffer.byteLength(JSON.stringify({ content: TOO_BIG }), "utf8");
    const expected = {
      code: "payload_too_large",
      message: `Content is ${bytes} bytes; the limit is ${LIMITS.contentBytes}.`,
    };
    expect(await rest({ content: { content: TOO_BIG } })).toMatchObject(expected);
    expect(await langgraph([], { content: TOO_BIG })).toMatchObject(expected);
    expect(await mcpAdd({ content: { content: TOO_BIG } })).toEqual({ message: expected.message });
  });

  it("metadata over its byte limit is refused by the core's rule, and nothing was written by any refusal", async () => {
    const refusal = await rest({ content: "x", metadata: { note: "m".repeat(LIMITS.metadataBytes) } });
    expect(refusal).toMatchObject({
      code: "unprocessable",
      message: "Invalid input: metadata: metadata is limited to 8 KB.",
    });
    expect((await listMemories(contextFor(use(), me), { status: "all" })).memories).toEqual([]);
  });
});

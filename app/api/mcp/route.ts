import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { readJsonBody } from "@/lib/api/body";
import { actorFor, resolveCaller } from "@/lib/api/caller";
import { toErrorResponse } from "@/lib/api/errors";
import { createMemoryMcpServer } from "@/lib/mcp/tools";
import { memoryContextFor } from "@/lib/server/memory-context";

export const dynamic = "force-dynamic";

/**
 * MCP over streamable HTTP, stateless: each request authenticates (`Authorization: Bearer <key>`), gets its own
 * server and transport, and is answered with JSON. No session survives the request, so any web process can serve it.
 * The body goes through the API's own reader (size, depth and encoding limits) before the transport sees it.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const caller = await resolveCaller(request);
    const parsedBody = await readJsonBody(request);
    if (Array.isArray(parsedBody)) return batchRefused();
    const memory = await memoryContextFor(caller.principal, "api", { actor: actorFor(caller) });
    const server = createMemoryMcpServer(caller, memory);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody });
  } catch (error) {
    return toErrorResponse(error);
  }
}

/**
 * A JSON-RPC batch is refused whole, before any of its messages runs: MCP dropped batching in its 2025-06-18
 * revision, and a batch would run hundreds of tool calls under one rate-limit token and hold every result until the
 * last one finished.
 */
function batchRefused(): Response {
  return Response.json(
    {
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: "Invalid Request: JSON-RPC batches are not supported; send one message per request.",
      },
      id: null,
    },
    { status: 400 },
  );
}

/**
 * Without sessions there is no stream to open (GET) and nothing to end (DELETE); the protocol lets a server answer
 * 405, which clients take as "no server-initiated stream". Holding a GET open would only tie up a connection.
 */
async function methodNotAllowed(): Promise<Response> {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: POST JSON-RPC messages." }, id: null },
    { status: 405, headers: { allow: "POST" } },
  );
}

export const GET = methodNotAllowed;
export const DELETE = methodNotAllowed;

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { actorFor, resolveCaller } from "@/lib/api/caller";
import { toErrorResponse } from "@/lib/api/handler";
import { memoryContextFor } from "@/lib/api/memory-context";
import { createMemoryMcpServer } from "@/lib/mcp/tools";

export const dynamic = "force-dynamic";

/**
 * MCP over streamable HTTP, stateless: each request authenticates (`Authorization: Bearer <key>`), gets its own
 * server and transport, and is answered with JSON. No session survives the request, so any web process can serve it.
 */
async function handle(request: Request): Promise<Response> {
  try {
    const caller = await resolveCaller(request);
    const memory = await memoryContextFor(caller.principal, actorFor(caller));
    const server = createMemoryMcpServer(caller, memory);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    return await transport.handleRequest(request);
  } catch (error) {
    return toErrorResponse(error);
  }
}

export const POST = handle;
export const GET = handle;
export const DELETE = handle;

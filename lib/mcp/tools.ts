import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Caller, requireScope } from "@/lib/api/caller";
import { ApiError } from "@/lib/api/errors";
import type { ApiKeyScope } from "@/lib/auth/api-keys";
import {
  createMemory,
  deleteMemory,
  fieldFilterSchema,
  getMemory,
  listMemories,
  type MemoryContext,
  MemoryError,
  searchMemories,
  serializeMemory,
  serializeSearchResult,
  updateMemory,
} from "@/lib/memory";

const namespace = z
  .array(z.string().min(1).max(128))
  .max(8)
  .describe('Relative namespace segments under your own root, e.g. ["projects", "ledger"]. Omit for the root.');
const memoryId = z.uuid().describe("The memory's id, as returned by add_memory, search_memories or list_memories.");
const kind = z
  .string()
  .min(1)
  .max(64)
  .describe(
    'Content kind: "memory" (default, a plain sentence), "preference", "episode", "procedure", "triple", "profile" or "document".',
  );
const content = z
  .union([z.string().min(1).max(32_000), z.record(z.string(), z.unknown())])
  .describe('A plain sentence for kind "memory", or an object matching the kind (e.g. { "preference": "…" }).');

const result = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
});

/** Tool failures are reported to the model as tool errors, never as protocol errors, so it can correct itself. */
async function run(caller: Caller, scope: ApiKeyScope, work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    requireScope(caller, scope);
    return result(await work());
  } catch (error) {
    if (error instanceof ApiError || error instanceof MemoryError) {
      return { isError: true, content: [{ type: "text", text: error.message }] };
    }
    throw error;
  }
}

/**
 * A stateless MCP server for one request: every tool acts inside the caller's namespace root, and the caller's key
 * scopes decide which tools may run (read: search, get, list; write: add, update, delete).
 */
export function createMemoryMcpServer(caller: Caller, memory: MemoryContext): McpServer {
  const server = new McpServer(
    { name: "memory-ledger", version: "1.0.0" },
    {
      instructions:
        "Long-term memory the user can see and audit. Search before answering questions about the user; add a memory when they state a lasting fact or preference; update instead of adding a duplicate.",
    },
  );

  server.registerTool(
    "add_memory",
    {
      title: "Add memory",
      description:
        "Save a lasting fact, preference or instruction about the user. Write one self-contained statement per memory. Returns the saved memory with its id.",
      inputSchema: { content, kind: kind.optional(), namespace: namespace.optional() },
    },
    (input) => run(caller, "write", async () => ({ memory: serializeMemory(await createMemory(memory, input)) })),
  );

  server.registerTool(
    "search_memories",
    {
      title: "Search memories",
      description:
        "Find memories relevant to a natural-language query (a question or the user's message works). Results are ranked, each with a score.",
      inputSchema: {
        query: z.string().min(1).max(2_000).describe("What to look for, in natural language."),
        limit: z.number().int().min(1).max(50).optional().describe("At most this many results (default 10)."),
        namespace: namespace.optional(),
        kind: kind.optional(),
        filter: fieldFilterSchema
          .optional()
          .describe('Metadata conditions, e.g. { "project": "ledger", "priority": { "$gte": 2 } }.'),
      },
      annotations: { readOnlyHint: true },
    },
    ({ filter, ...input }) =>
      run(caller, "read", async () => ({
        results: (await searchMemories(memory, { ...input, metadata: filter })).map(serializeSearchResult),
      })),
  );

  server.registerTool(
    "get_memory",
    {
      title: "Get memory",
      description: "Read one memory by id, with its kind, content, version, source and timestamps.",
      inputSchema: { id: memoryId },
      annotations: { readOnlyHint: true },
    },
    ({ id }) => run(caller, "read", async () => ({ memory: serializeMemory(await getMemory(memory, id)) })),
  );

  server.registerTool(
    "update_memory",
    {
      title: "Update memory",
      description:
        "Replace a memory's content when a fact changed (keeps the old version in its history). Pass expectedVersion from get_memory to avoid overwriting a change you have not seen.",
      inputSchema: {
        id: memoryId,
        content,
        kind: kind.optional(),
        expectedVersion: z.number().int().positive().optional().describe("Fail if the memory's version differs."),
      },
    },
    ({ id, ...change }) =>
      run(caller, "write", async () => ({ memory: serializeMemory(await updateMemory(memory, id, change)) })),
  );

  server.registerTool(
    "delete_memory",
    {
      title: "Delete memory",
      description:
        "Forget a memory the user asked to forget or that is wrong. It is kept as a tombstone in the history (the user can restore it) and no longer returned by search.",
      inputSchema: { id: memoryId, reason: z.string().max(500).optional().describe("Why it is being forgotten.") },
      annotations: { destructiveHint: true },
    },
    ({ id, reason }) =>
      run(caller, "write", async () => ({ memory: serializeMemory(await deleteMemory(memory, id, { reason })) })),
  );

  server.registerTool(
    "list_memories",
    {
      title: "List memories",
      description: "List memories newest first, optionally under a namespace or of one kind. Page with nextCursor.",
      inputSchema: {
        namespace: namespace.optional(),
        kind: kind.optional(),
        limit: z.number().int().min(1).max(100).optional().describe("Page size (default 50)."),
        cursor: z.string().max(500).optional().describe("nextCursor from the previous page."),
      },
      annotations: { readOnlyHint: true },
    },
    (input) =>
      run(caller, "read", async () => {
        const page = await listMemories(memory, input);
        return { memories: page.memories.map(serializeMemory), nextCursor: page.nextCursor };
      }),
  );

  return server;
}

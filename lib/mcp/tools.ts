import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { type Caller, requireScope } from "@/lib/api/caller";
import type { ApiKeyScope } from "@/lib/auth/api-keys";
import { memoryToolHandlers } from "@/lib/chat/memory-tools";
import { AppError, ERROR_TABLE, failureOf } from "@/lib/errors";
import { logFailure } from "@/lib/log";
import { fieldFilterSchema, LIMITS, MANAGE_MEMORY, SEARCH_MEMORY } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import {
  createMemory,
  deleteMemory,
  getMemory,
  listMemories,
  serializeMemory,
  serializeSearchResult,
  supersedeMemory,
  updateMemory,
} from "@/lib/memory/store";

// Types and descriptions only: the memory core bounds every value (lib/memory/contract/limits.ts), so an over-limit
// input gets the same error here as over REST or from the chat tools.
const namespace = z
  .array(z.string())
  .describe(
    `Relative namespace segments under your own root, e.g. ["projects", "ledger"] (at most ${LIMITS.namespaceDepth}). Omit for the root.`,
  );
const memoryId = z.string().describe("The memory's id, as returned by manage_memory or search_memory.");
const kind = z
  .string()
  .describe(
    'Content kind: "memory" (default, a plain sentence), "preference", "episode", "procedure", "triple", "profile" or "document".',
  );
const content = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .describe(
    `A plain sentence for kind "memory" (at most ${LIMITS.memoryTextChars} characters), or an object matching the kind (e.g. { "preference": "…" }).`,
  );

const date = (what: string) => z.string().describe(`${what} (ISO date YYYY-MM-DD, or a date-time with an offset).`);
const validFrom = date("When the fact started to hold in the world, if the user said so");
const validTo = date("When the fact stopped holding, if the user said so");
const asOf = date("Only facts that held then, superseded ones included; without it superseded facts are left out");

const result = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
});

/**
 * Tool failures are reported to the model as tool errors, never as protocol errors, so it can correct itself; a
 * fault reads as the error table's generic message and is logged.
 */
async function run(caller: Caller, scope: ApiKeyScope, work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    requireScope(caller, scope);
    return result(await work());
  } catch (error) {
    if (!(error instanceof AppError) || !ERROR_TABLE[error.code].shown) logFailure("MCP tool failed", error);
    return { isError: true, content: [{ type: "text", text: failureOf(error).message }] };
  }
}

/** The description of a name kept for clients configured before the shared vocabulary, pointing at its successor. */
const deprecated = (instead: string, description: string) =>
  `Deprecated (kept for configured clients): use ${instead}. ${description}`;

/**
 * A stateless MCP server for one request: every tool acts inside the caller's namespace root, and the caller's key
 * scopes decide which tools may run (read: search, get, list; write: manage, add, update, delete).
 *
 * Its tools are the chat's (lib/memory/contract/vocabulary.ts): manage_memory and search_memory, with the same schemas,
 * descriptions and answers, run by the same handlers. The names it offered before stay, with their own arguments and
 * answers, so clients and programs configured with them keep working.
 */
export function createMemoryMcpServer(caller: Caller, memory: MemoryContext): McpServer {
  const server = new McpServer(
    { name: "memory-ledger", version: "1.0.0" },
    {
      instructions:
        "Long-term memory the user can see and audit. Search before answering questions about the user (search_memory); save a memory with manage_memory when they state a lasting fact or preference; update instead of adding a duplicate.",
    },
  );

  // Written as the key's app, like every other MCP write: review holds back only a model's own writes.
  registerSharedTools(server, caller, memoryToolHandlers(memory));
  registerDeprecatedWrites(server, caller, memory);
  registerDeprecatedReads(server, caller, memory);
  return server;
}

/** manage_memory and search_memory: the chat's tools, by the same handlers. */
function registerSharedTools(server: McpServer, caller: Caller, shared: ReturnType<typeof memoryToolHandlers>) {
  server.registerTool(
    MANAGE_MEMORY,
    {
      title: "Manage memory",
      description: shared.manage_memory.description,
      inputSchema: shared.manage_memory.inputSchema,
      annotations: { destructiveHint: true },
    },
    (input) => run(caller, "write", () => shared.manage_memory.execute(input)),
  );
  server.registerTool(
    SEARCH_MEMORY,
    {
      title: "Search memory",
      description: shared.search_memory.description,
      inputSchema: shared.search_memory.inputSchema,
      annotations: { readOnlyHint: true },
    },
    (input) => run(caller, "read", () => shared.search_memory.execute(input)),
  );
}

/** The write tools of before the shared vocabulary, with their own arguments and answers. */
function registerDeprecatedWrites(server: McpServer, caller: Caller, memory: MemoryContext) {
  server.registerTool(
    "add_memory",
    {
      title: "Add memory (deprecated)",
      description: deprecated(
        'manage_memory with action "create"',
        "Save a lasting fact, preference or instruction about the user. Write one self-contained statement per memory. Returns the saved memory with its id.",
      ),
      inputSchema: {
        content,
        kind: kind.optional(),
        namespace: namespace.optional(),
        validFrom: validFrom.optional(),
        validTo: validTo.optional(),
      },
    },
    (input) => run(caller, "write", async () => ({ memory: serializeMemory(await createMemory(memory, input)) })),
  );

  server.registerTool(
    "update_memory",
    {
      title: "Update memory (deprecated)",
      description: deprecated(
        'manage_memory with action "update"',
        "Replace a memory's content when it was wrong (keeps the old version in its history). When the fact changed in the world (the user moved, changed jobs), pass validFrom, the date it changed: the old memory is then kept as history, closed at that date, and a new memory holds the new content (returned as `memory`, the old one as `superseded`). Pass expectedVersion from get_memory to avoid overwriting a change you have not seen. `pinned: true` recalls the memory in every chat turn.",
      ),
      inputSchema: {
        id: memoryId,
        content: content.optional(),
        kind: kind.optional(),
        expectedVersion: z.number().int().optional().describe("Fail if the memory's version differs."),
        validFrom: validFrom.optional(),
        validTo: validTo.optional(),
        pinned: z.boolean().optional().describe("Pinned memories are recalled into every chat turn."),
      },
    },
    ({ id, validFrom: from, ...change }) =>
      run(caller, "write", async () => {
        if (from !== undefined && change.content !== undefined) {
          const { closed, created } = await supersedeMemory(memory, id, {
            content: change.content,
            validFrom: from,
            expectedVersion: change.expectedVersion,
          });
          return { memory: serializeMemory(created), superseded: serializeMemory(closed) };
        }
        return { memory: serializeMemory(await updateMemory(memory, id, { ...change, validFrom: from })) };
      }),
  );

  server.registerTool(
    "delete_memory",
    {
      title: "Delete memory (deprecated)",
      description: deprecated(
        'manage_memory with action "delete"',
        "Forget a memory the user asked to forget or that is wrong. It is kept as a tombstone in the history (the user can restore it) and no longer returned by search.",
      ),
      inputSchema: { id: memoryId, reason: z.string().optional().describe("Why it is being forgotten.") },
      annotations: { destructiveHint: true },
    },
    ({ id, reason }) =>
      run(caller, "write", async () => ({ memory: serializeMemory(await deleteMemory(memory, id, { reason })) })),
  );
}

/** The read tools of before the shared vocabulary, with their own arguments and answers. */
function registerDeprecatedReads(server: McpServer, caller: Caller, memory: MemoryContext) {
  server.registerTool(
    "search_memories",
    {
      title: "Search memories (deprecated)",
      description: deprecated(
        "search_memory",
        "Find memories relevant to a natural-language query (a question or the user's message works). Results are ranked, each with a score.",
      ),
      inputSchema: {
        query: z.string().describe("What to look for, in natural language."),
        limit: z
          .number()
          .int()
          .optional()
          .describe(`At most this many results (default 10, up to ${LIMITS.searchResults}).`),
        namespace: namespace.optional(),
        kind: kind.optional(),
        filter: fieldFilterSchema
          .optional()
          .describe('Metadata conditions, e.g. { "project": "ledger", "priority": { "$gte": 2 } }.'),
        asOf: asOf.optional(),
        minConfidence: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe(`Only hits at least this confident (${LIMITS.confidenceFloor}: the confident ones).`),
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
      title: "Get memory (deprecated)",
      description: deprecated(
        "search_memory, whose results carry each memory",
        "Read one memory by id, with its kind, content, version, source and timestamps.",
      ),
      inputSchema: { id: memoryId },
      annotations: { readOnlyHint: true },
    },
    ({ id }) => run(caller, "read", async () => ({ memory: serializeMemory(await getMemory(memory, id)) })),
  );

  server.registerTool(
    "list_memories",
    {
      title: "List memories (deprecated)",
      description: deprecated(
        "search_memory",
        "List memories newest first, optionally under a namespace or of one kind. Page with nextCursor.",
      ),
      inputSchema: {
        namespace: namespace.optional(),
        kind: kind.optional(),
        limit: z.number().int().optional().describe(`Page size (default 50, up to ${LIMITS.listPage}).`),
        cursor: z.string().optional().describe("nextCursor from the previous page."),
        asOf: asOf.optional(),
        pinned: z.boolean().optional().describe("Only pinned (true) or unpinned (false) memories."),
      },
      annotations: { readOnlyHint: true },
    },
    (input) =>
      run(caller, "read", async () => {
        const page = await listMemories(memory, input);
        return { memories: page.memories.map(serializeMemory), nextCursor: page.nextCursor };
      }),
  );
}

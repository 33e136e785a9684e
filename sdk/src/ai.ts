import { type Tool, tool } from "ai";
import { ERROR_TABLE } from "@/lib/errors";
import {
  type AppliedMemoryOutput,
  MANAGE_ACTIONS,
  type ManageMemoryInput,
  type ManageMemoryOutput,
  type MemoryHit,
  manageMemoryDescription,
  manageMemoryInput,
  SEARCH_MEMORY_DEFAULT_LIMIT,
  SEARCH_MEMORY_DESCRIPTION,
  type SearchMemoryInput,
  searchMemoryInput,
  toModelMemory,
} from "@/lib/memory/contract";
import type { MemoryClient } from "./client";
import { MemoryLedgerError } from "./errors";
import type { Memory } from "./types";

export type { ModelMemory } from "@/lib/memory/contract";
export type { ManageMemoryInput, ManageMemoryOutput, MemoryHit, SearchMemoryInput };

export interface MemoryToolsOptions {
  /**
   * Where the tools read and write, relative to the key owner's root (e.g. `["agents", "support"]`). Searches look
   * only here, new memories go here, and updates and deletes refuse memories elsewhere. Default: the whole root.
   */
  namespace?: string[];
  /** How many memories a search returns unless the model asks for another number (1–20). Default 5. */
  searchLimit?: number;
}

/** The server's chat tools, by name, schema and answer (lib/memory/contract/vocabulary.ts), over its HTTP API. */
export interface MemoryTools {
  manage_memory: Tool<ManageMemoryInput, ManageMemoryOutput>;
  search_memory: Tool<SearchMemoryInput, MemoryHit[]>;
}

/**
 * Memory Ledger as AI SDK tools, for `generateText` / `streamText({ tools: memoryTools(client) })`: the same
 * `manage_memory` and `search_memory` the server's chat and MCP offer. The model picks verbs, statements, ids and
 * queries; where they live (`namespace`) and who writes (the API key) are fixed here.
 */
export function memoryTools(client: MemoryClient, options: MemoryToolsOptions = {}): MemoryTools {
  const namespace = options.namespace ?? [];
  const searchLimit = options.searchLimit ?? SEARCH_MEMORY_DEFAULT_LIMIT;

  /** Updates and deletes reach only memories under the tools' namespace: others read as absent. */
  async function ownMemory(memoryId: string): Promise<Memory> {
    const memory = await client.memories.get(memoryId);
    if (!namespace.every((segment, index) => memory.namespace[index] === segment)) {
      throw new MemoryLedgerError("not_found", 404, `No memory with id ${memoryId}.`);
    }
    return memory;
  }

  async function manage(input: ManageMemoryInput): Promise<ManageMemoryOutput> {
    if (input.action === "create") {
      const content = required(input.content, "content");
      return output("created", await client.memories.create({ content, namespace, validFrom: input.validFrom }));
    }
    const id = required(input.id, "id");
    await ownMemory(id);
    if (input.action === "update") {
      const content = required(input.content, "content");
      if (input.validFrom !== undefined) {
        // Keeping the old value as history (supersede) is one unit of work on the server, which its HTTP API does
        // not offer yet; two requests could leave half of it done.
        throw new MemoryLedgerError(
          "unprocessable",
          422,
          "This server's API cannot keep the old value as history: update without validFrom to replace the content.",
        );
      }
      return output("updated", await client.memories.update(id, { content }));
    }
    return output("deleted", await client.memories.delete(id));
  }

  return {
    manage_memory: tool({
      description: manageMemoryDescription(MANAGE_ACTIONS),
      inputSchema: manageMemoryInput(MANAGE_ACTIONS),
      execute: (input) => toolErrors(() => manage(input)),
    }),
    search_memory: tool({
      description: SEARCH_MEMORY_DESCRIPTION,
      inputSchema: searchMemoryInput,
      execute: (input) =>
        toolErrors(async () => {
          const results = await client.memories.search({
            query: input.query,
            limit: input.limit ?? searchLimit,
            kind: input.kind,
            asOf: input.asOf,
            namespace,
          });
          return results.map(
            ({ memory, score, confidence }): MemoryHit => ({ ...toModelMemory(memory), score, confidence }),
          );
        }),
    }),
  };
}

const output = (action: AppliedMemoryOutput["action"], memory: Memory): AppliedMemoryOutput => ({
  action,
  ...toModelMemory(memory),
  version: memory.version,
});

function required(value: string | undefined, field: string): string {
  if (!value) throw new MemoryLedgerError("unprocessable", 422, `\`${field}\` is required for this action.`);
  return value;
}

/**
 * What the model reads on failure: the server's own words for what it may show (not found, invalid, rate limited),
 * a generic sentence for faults, whose details stay on the error's `cause` for the app's logs.
 */
async function toolErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof MemoryLedgerError && ERROR_TABLE[error.code].shown) throw new Error(error.message);
    throw new Error("The memory store is unavailable; continue without it.", { cause: error });
  }
}

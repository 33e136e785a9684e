import { type Tool, tool } from "ai";
import { z } from "zod";
import { ERROR_TABLE } from "@/lib/errors";
import { LIMITS } from "@/lib/memory/contract";
import type { MemoryClient } from "./client";
import { MemoryLedgerError } from "./errors";
import type { Memory } from "./types";

export interface MemoryToolsOptions {
  /**
   * Where the tools read and write, relative to the key owner's root (e.g. `["agents", "support"]`). Searches look
   * only here, new memories go here, and updates and deletes refuse memories elsewhere. Default: the whole root.
   */
  namespace?: string[];
  /** How many memories a search returns unless the model asks for another number (1–20). Default 5. */
  searchLimit?: number;
}

export interface MemoryHit {
  id: string;
  kind: string;
  content: string;
  score: number;
  updatedAt: string;
}

export interface MemoryWritten {
  id: string;
  content: string;
  version: number;
}

const id = z.string().min(1).max(100).describe("The memory's id, as a search returned it.");
const content = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.memoryTextChars)
  .describe("One self-contained statement that reads well on its own later, e.g. 'The user prefers dark mode'.");

const searchInput = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.queryChars)
    .describe("What to look for, in natural language, e.g. 'which editor does the user use'."),
  limit: z.number().int().min(1).max(20).optional().describe("How many memories to return."),
  kind: z.string().min(1).max(LIMITS.kindChars).optional().describe("Only memories of this kind, e.g. preference."),
});
const addInput = z.strictObject({ content });
const updateInput = z.strictObject({ id, content: content.describe("The full new statement; it replaces the old.") });
const deleteInput = z.strictObject({ id });

export type SearchMemoriesInput = z.infer<typeof searchInput>;
export type AddMemoryInput = z.infer<typeof addInput>;
export type UpdateMemoryInput = z.infer<typeof updateInput>;
export type DeleteMemoryInput = z.infer<typeof deleteInput>;

export interface MemoryTools {
  searchMemories: Tool<SearchMemoriesInput, MemoryHit[]>;
  addMemory: Tool<AddMemoryInput, MemoryWritten>;
  updateMemory: Tool<UpdateMemoryInput, MemoryWritten>;
  deleteMemory: Tool<DeleteMemoryInput, { id: string; deleted: true }>;
}

/**
 * Memory Ledger as AI SDK tools, for `generateText` / `streamText({ tools: memoryTools(client) })`. The model picks
 * queries, statements and ids; where they live (`namespace`) and who writes (the API key) are fixed here.
 */
export function memoryTools(client: MemoryClient, options: MemoryToolsOptions = {}): MemoryTools {
  const namespace = options.namespace ?? [];
  const searchLimit = options.searchLimit ?? 5;

  /** Updates and deletes reach only memories under the tools' namespace: others read as absent. */
  async function ownMemory(memoryId: string): Promise<Memory> {
    const memory = await client.memories.get(memoryId);
    if (!namespace.every((segment, index) => memory.namespace[index] === segment)) {
      throw new MemoryLedgerError("not_found", 404, `No memory with id ${memoryId}.`);
    }
    return memory;
  }

  return {
    searchMemories: tool({
      description:
        "Search long-term memory: facts, preferences and instructions saved in earlier conversations. Use it before " +
        "answering anything that depends on what you may already know about the user or the task.",
      inputSchema: searchInput,
      execute: (input) =>
        toolErrors(async () => {
          const results = await client.memories.search({
            query: input.query,
            limit: input.limit ?? searchLimit,
            kind: input.kind,
            namespace,
          });
          return results.map(({ memory, score }) => ({
            id: memory.id,
            kind: memory.kind,
            content: memory.text,
            score,
            updatedAt: memory.updatedAt,
          }));
        }),
    }),
    addMemory: tool({
      description:
        "Save a new long-term memory: a durable fact, preference or instruction worth knowing in later " +
        "conversations. One statement per call; not small talk, not something already saved (search first).",
      inputSchema: addInput,
      execute: (input) =>
        toolErrors(async () => written(await client.memories.create({ content: input.content, namespace }))),
    }),
    updateMemory: tool({
      description:
        "Correct or refresh a saved memory (its id from searchMemories) when the user says it changed or it is " +
        "wrong. Pass the whole new statement.",
      inputSchema: updateInput,
      execute: (input) =>
        toolErrors(async () => {
          await ownMemory(input.id);
          return written(await client.memories.update(input.id, { content: input.content }));
        }),
    }),
    deleteMemory: tool({
      description:
        "Forget a saved memory (its id from searchMemories) that is wrong or that the user asked you to forget.",
      inputSchema: deleteInput,
      execute: (input) =>
        toolErrors(async () => {
          await ownMemory(input.id);
          await client.memories.delete(input.id);
          return { id: input.id, deleted: true as const };
        }),
    }),
  };
}

const written = (memory: Memory): MemoryWritten => ({ id: memory.id, content: memory.text, version: memory.version });

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

import { tool } from "ai";
import { z } from "zod";
import type { MemoryContext } from "./context";
import { MemoryError, MemoryValidationError } from "./errors";
import { type NamespaceTemplate, resolveNamespaceTemplate } from "./namespace";
import { parseInput } from "./parse";
import { searchMemories } from "./search";
import { createMemory, deleteMemory, updateMemory } from "./store";
import type { Memory } from "./types";

export const MANAGE_ACTIONS = ["create", "update", "delete"] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];

export interface MemoryToolsOptions {
  /** Where the tools read and write, relative to the principal's root; `{placeholders}` are filled from the context. */
  namespace?: NamespaceTemplate;
  /** Extra placeholder values; `userId` (and `threadId` when the context has one) are always available. */
  namespaceValues?: Readonly<Record<string, string | undefined>>;
  /** Narrows what manage_memory may do: its input schema and its description list only these verbs. */
  actionsPermitted?: readonly ManageAction[];
  /** Recorded as the writing agent's id (e.g. the chat model id). */
  agentId?: string;
}

export interface ManageMemoryInput {
  action: ManageAction;
  content?: string;
  id?: string;
}

export interface ManageMemoryOutput {
  action: "created" | "updated" | "deleted";
  id: string;
  content: string;
  version: number;
}

export interface SearchMemoryInput {
  query: string;
  limit?: number;
  kind?: string;
}

export interface SearchMemoryHit {
  id: string;
  kind: string;
  content: string;
  score: number;
  updatedAt: string;
}

const VERB_TEXT: Record<ManageAction, string> = {
  create: "save a new memory (pass `content`)",
  update: "replace the content of an existing memory (pass `id` and the full new `content`)",
  delete: "remove a memory that is wrong or that the user asked you to forget (pass `id`)",
};

/**
 * The chat tools over the memory core. Everything the model may not choose (namespace, user, actor, provenance) is
 * closed over here; the model only picks verbs, content, ids and queries. The namespace template is resolved now,
 * so a missing key fails while wiring the request and never reaches the model.
 */
export function createMemoryTools(ctx: MemoryContext, options: MemoryToolsOptions = {}) {
  const namespace = resolveNamespaceTemplate(options.namespace ?? [], {
    userId: ctx.principal.userId,
    threadId: ctx.provenance?.threadId,
    ...options.namespaceValues,
  });
  const agentCtx: MemoryContext = { ...ctx, actor: { type: "agent", id: options.agentId ?? ctx.actor.id } };
  return {
    manage_memory: manageMemoryTool(agentCtx, namespace, options.actionsPermitted ?? MANAGE_ACTIONS),
    search_memory: searchMemoryTool(ctx, namespace),
  };
}

function manageMemoryTool(ctx: MemoryContext, namespace: string[], permitted: readonly ManageAction[]) {
  const actions = MANAGE_ACTIONS.filter((action) => permitted.includes(action));
  const [first, ...rest] = actions;
  if (!first) throw new Error("actionsPermitted must allow at least one action.");
  const needsId = actions.some((action) => action !== "create");
  const inputSchema = z.strictObject({
    action: z.enum([first, ...rest]).describe(`One of: ${actions.join(", ")}.`),
    content: z
      .string()
      .trim()
      .min(1)
      .max(8_000)
      .optional()
      .describe("The memory as one self-contained statement, e.g. 'The user prefers dark mode'."),
    ...(needsId ? { id: z.string().min(1).max(100).optional().describe("The id of an existing memory.") } : {}),
  }) as z.ZodType<ManageMemoryInput>;
  const verbs = actions.map((action) => VERB_TEXT[action]).join("; ");
  return tool({
    description:
      "Manage long-term memories about the user that persist across conversations. " +
      `Allowed actions: ${verbs}. Store durable facts, preferences and instructions, not small talk.`,
    inputSchema,
    execute: (raw): Promise<ManageMemoryOutput> =>
      toolErrors(async () => {
        const input = parseInput(inputSchema, raw);
        if (input.action === "create") {
          return output("created", await createMemory(ctx, { content: required(input.content, "content"), namespace }));
        }
        const id = required(input.id, "id");
        if (input.action === "update") {
          const content = required(input.content, "content");
          return output("updated", await updateMemory(ctx, id, { content, within: namespace }));
        }
        return output("deleted", await deleteMemory(ctx, id, { within: namespace }));
      }),
  });
}

function searchMemoryTool(ctx: MemoryContext, namespace: string[]) {
  const inputSchema = z.strictObject({
    query: z.string().trim().min(1).max(1_000).describe("What to look for, in natural language."),
    limit: z.number().int().min(1).max(20).optional().describe("How many memories to return (default 5)."),
    kind: z.string().min(1).max(64).optional().describe("Only memories of this kind, e.g. preference."),
  });
  return tool({
    description:
      "Search long-term memories about the user. Use it before answering questions about the user's facts, " +
      "preferences or past conversations.",
    inputSchema,
    execute: (raw: SearchMemoryInput): Promise<SearchMemoryHit[]> =>
      toolErrors(async () => {
        const input = parseInput(inputSchema, raw);
        const results = await searchMemories(ctx, {
          query: input.query,
          limit: input.limit ?? 5,
          kind: input.kind,
          namespace,
        });
        return results.map(({ memory, score }) => ({
          id: memory.id,
          kind: memory.kind,
          content: memory.text,
          score,
          updatedAt: memory.updatedAt.toISOString(),
        }));
      }),
  });
}

function required(value: string | undefined, field: string): string {
  if (!value)
    throw new MemoryValidationError(`\`${field}\` is required for this action.`, [
      { path: [field], message: "required" },
    ]);
  return value;
}

const output = (action: ManageMemoryOutput["action"], memory: Memory): ManageMemoryOutput => ({
  action,
  id: memory.id,
  content: memory.text,
  version: memory.version,
});

/**
 * What the model sees on failure: memory errors explain themselves (not found, deleted, invalid); anything else is
 * an infrastructure failure whose details stay out of the conversation (kept as `cause` for logs).
 */
async function toolErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof MemoryError) throw new Error(error.message);
    throw new Error("The memory store is unavailable; continue without it.", { cause: error });
  }
}

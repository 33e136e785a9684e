import { tool } from "ai";
import { z } from "zod";
import { AppError, ERROR_TABLE, parseInput, ValidationError } from "@/lib/errors";
import { logFailure } from "@/lib/log";
import { instantInput, LIMITS } from "@/lib/memory/contract";
import { type MemoryContext, type NamespaceTemplate, resolveNamespaceTemplate } from "@/lib/memory/core";
import { gatedDelete, isHeld, newReviewTurn, type ReviewTurn } from "@/lib/memory/review";
import { searchMemories } from "@/lib/memory/search";
import { createMemoryOnce, type Memory, supersedeMemory, updateMemory } from "@/lib/memory/store";

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
  /** When the fact started to hold; on update, the fact changed in the world then (supersede). */
  validFrom?: string;
}

export interface ManageMemoryOutput {
  /**
   * `unchanged`: a create of a fact the user already has, which returns that memory and writes nothing.
   * `superseded`: an update with validFrom; `id` is the new memory, `supersededId` the old one, kept and closed.
   * `proposed`: the change waits for the user's approval (review mode) and the memory is as it was.
   */
  action: "created" | "unchanged" | "updated" | "superseded" | "deleted" | "proposed";
  supersededId?: string;
  id: string;
  content: string;
  version: number;
  /** With `proposed`: the proposal the user will review, and a sentence to pass on. */
  proposalId?: string;
  note?: string;
}

export interface SearchMemoryInput {
  query: string;
  limit?: number;
  kind?: string;
  asOf?: string;
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
  // One set of tools serves one chat turn: review counts the turn's deletes here.
  const turn = newReviewTurn();
  return {
    manage_memory: manageMemoryTool(agentCtx, namespace, options.actionsPermitted ?? MANAGE_ACTIONS, turn),
    search_memory: searchMemoryTool(ctx, namespace),
  };
}

function manageMemoryTool(
  ctx: MemoryContext,
  namespace: string[],
  permitted: readonly ManageAction[],
  turn: ReviewTurn,
) {
  const actions = MANAGE_ACTIONS.filter((action) => permitted.includes(action));
  const [first, ...rest] = actions;
  if (!first) throw new Error("actionsPermitted must allow at least one action.");
  const needsId = actions.some((action) => action !== "create");
  const inputSchema = z.strictObject({
    action: z.enum([first, ...rest]).describe(`One of: ${actions.join(", ")}.`),
    // Bounded by the core, like every other surface's content (lib/memory/contract/limits.ts).
    content: z
      .string()
      .optional()
      .describe(
        `The memory as one self-contained statement, e.g. 'The user prefers dark mode' (at most ${LIMITS.memoryTextChars} characters).`,
      ),
    ...(needsId ? { id: z.string().optional().describe("The id of an existing memory.") } : {}),
    ...(actions.includes("create") || actions.includes("update")
      ? {
          validFrom: z
            .string()
            .optional()
            .describe(
              "The date (YYYY-MM-DD) the fact started to hold, only when the user says when (e.g. 'since last month')." +
                (actions.includes("update")
                  ? " On update: the fact changed in the world then; the old memory is kept as history, closed at that date, and a new one holds the new content."
                  : ""),
            ),
        }
      : {}),
  }) as z.ZodType<ManageMemoryInput>;
  const verbs = actions.map((action) => VERB_TEXT[action]).join("; ");
  return tool({
    description:
      "Manage long-term memories about the user that persist across conversations. " +
      `Allowed actions: ${verbs}. Store durable facts, preferences and instructions, not small talk. ` +
      "Never save anything the user's rules forbid; a write that breaks one is refused, naming the rule.",
    inputSchema,
    execute: (raw): Promise<ManageMemoryOutput> =>
      toolErrors(async () => {
        const input = parseInput(inputSchema, raw);
        const validFrom = input.validFrom === undefined ? undefined : parseInput(instantInput, input.validFrom);
        if (input.action === "create") {
          const { memory, created } = await createMemoryOnce(ctx, {
            content: required(input.content, "content"),
            namespace,
            validFrom,
          });
          return output(created ? "created" : "unchanged", memory);
        }
        const id = required(input.id, "id");
        if (input.action === "update") {
          const content = required(input.content, "content");
          if (validFrom) {
            const { closed, created } = await supersedeMemory(ctx, id, { content, validFrom, within: namespace });
            return { ...output("superseded", created), supersededId: closed.id };
          }
          return output("updated", await updateMemory(ctx, id, { content, within: namespace }));
        }
        const removed = await gatedDelete(ctx, turn, id, { within: namespace });
        if (!isHeld(removed)) return output("deleted", removed.memory);
        return {
          action: "proposed",
          id,
          content: removed.proposal.text ?? "",
          version: removed.proposal.expectedVersion ?? 0,
          proposalId: removed.proposal.id,
          note: "Not deleted yet: the user reviews this deletion first (Review page).",
        };
      }),
  });
}

function searchMemoryTool(ctx: MemoryContext, namespace: string[]) {
  const inputSchema = z.strictObject({
    query: z.string().describe("What to look for, in natural language."),
    limit: z.number().int().min(1).max(20).optional().describe("How many memories to return (default 5)."),
    kind: z.string().optional().describe("Only memories of this kind, e.g. preference."),
    asOf: z
      .string()
      .optional()
      .describe(
        "A date (YYYY-MM-DD) to ask what held then (e.g. where the user lived in 2020), superseded facts included.",
      ),
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
          asOf: input.asOf,
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
    throw new ValidationError(`\`${field}\` is required for this action.`, [{ path: [field], message: "required" }]);
  return value;
}

const output = (action: ManageMemoryOutput["action"], memory: Memory): ManageMemoryOutput => ({
  action,
  id: memory.id,
  content: memory.text,
  version: memory.version,
});

/**
 * What the model sees on failure: expected failures explain themselves (not found, deleted, invalid) where the error
 * table shows their message; anything else is an infrastructure failure whose details stay out of the conversation
 * (kept as `cause` for logs).
 */
async function toolErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && ERROR_TABLE[error.code].shown) throw new Error(error.message);
    logFailure("a memory tool failed", error);
    throw new Error("The memory store is unavailable; continue without it.", { cause: error });
  }
}

import { type Schema, tool, zodSchema } from "ai";
import type { z } from "zod";
import { AppError, ERROR_TABLE, parseInput, ValidationError } from "@/lib/errors";
import { logFailure } from "@/lib/log";
import {
  type AppliedMemoryOutput,
  instantInput,
  MANAGE_ACTIONS,
  type ManageAction,
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
import { type Actor, type MemoryContext, type NamespaceTemplate, resolveNamespaceTemplate } from "@/lib/memory/core";
import { type GateDecision, gate, type ModelWrite, newReviewTurn, type ReviewTurn } from "@/lib/memory/review";
import { searchMemories } from "@/lib/memory/search";
import type { Memory } from "@/lib/memory/store";

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

/**
 * The memory tools' handlers, for any surface that hands them to a model (the chat below, MCP in lib/mcp/tools.ts).
 * Everything the model may not choose (namespace, user, actor, provenance) is closed over here; the model only picks
 * verbs, content, ids and queries. The namespace template is resolved now, so a missing key fails while wiring the
 * request and never reaches the model. `execute` throws the core's errors; each surface reports them its own way.
 */
export function memoryToolHandlers(ctx: MemoryContext, options: MemoryToolsOptions & { writer?: Actor } = {}) {
  const namespace = resolveNamespaceTemplate(options.namespace ?? [], {
    userId: ctx.principal.userId,
    threadId: ctx.provenance?.threadId,
    ...options.namespaceValues,
  });
  const writer: MemoryContext = options.writer ? { ...ctx, actor: options.writer } : ctx;
  // One set of tools serves one chat turn (or one MCP request): review counts the turn's deletes here.
  const turn = newReviewTurn();
  return {
    manage_memory: manageMemoryHandler(writer, namespace, options.actionsPermitted ?? MANAGE_ACTIONS, turn),
    search_memory: searchMemoryHandler(ctx, namespace),
  };
}

/** The chat tools over the memory core: the handlers as AI SDK tools, writing as the chat's model. */
export function createMemoryTools(ctx: MemoryContext, options: MemoryToolsOptions = {}) {
  const handlers = memoryToolHandlers(ctx, {
    ...options,
    writer: { type: "agent", id: options.agentId ?? ctx.actor.id },
  });
  const { manage_memory: manage, search_memory: search } = handlers;
  return {
    manage_memory: tool({
      description: manage.description,
      inputSchema: modelSchemaOf(manage.inputSchema),
      execute: (raw): Promise<ManageMemoryOutput> => toolErrors(() => manage.execute(raw)),
    }),
    search_memory: tool({
      description: search.description,
      inputSchema: modelSchemaOf(search.inputSchema),
      execute: (raw: SearchMemoryInput): Promise<MemoryHit[]> => toolErrors(() => search.execute(raw)),
    }),
  };
}

/** By zod schema: a tool's input shown to a model keeps its JSON Schema from one turn to the next. */
const modelSchemas = new WeakMap<z.ZodType, Schema>();

/**
 * The AI SDK derives a zod schema's JSON Schema anew each time a model is called with it (every step of every turn);
 * made here once, it is derived once, on first use.
 */
function modelSchemaOf<T>(input: z.ZodType<T>): Schema<T> {
  let schema = modelSchemas.get(input);
  if (!schema) {
    schema = zodSchema(input);
    modelSchemas.set(input, schema);
  }
  return schema as Schema<T>;
}

function manageMemoryHandler(
  ctx: MemoryContext,
  namespace: string[],
  permitted: readonly ManageAction[],
  turn: ReviewTurn,
) {
  const inputSchema = manageMemoryInput(permitted);
  return {
    description: manageMemoryDescription(permitted),
    inputSchema,
    execute: async (raw: unknown): Promise<ManageMemoryOutput> => {
      const input = parseInput(inputSchema, raw);
      const validFrom = input.validFrom === undefined ? undefined : parseInput(instantInput, input.validFrom);
      const write: ModelWrite =
        input.action === "create"
          ? {
              op: "insert",
              content: required(input.content, "content"),
              namespace,
              validFrom,
              reason: "saved in the chat",
            }
          : input.action === "update"
            ? {
                op: "update",
                id: required(input.id, "id"),
                content: required(input.content, "content"),
                validFrom,
                within: namespace,
              }
            : { op: "delete", id: required(input.id, "id"), within: namespace };
      return toolOutput(input.action, await gate(ctx, turn, write));
    },
  };
}

/** The gate's decision as the model reads it: what was done, or what waits for the user and why. */
function toolOutput(action: ManageAction, decision: GateDecision): ManageMemoryOutput {
  switch (decision.decision) {
    case "applied":
      if (decision.closed) return { ...output("superseded", decision.memory), supersededId: decision.closed.id };
      return output(action === "create" ? "created" : action === "update" ? "updated" : "deleted", decision.memory);
    case "unchanged":
      return output(action === "delete" ? "deleted" : "unchanged", decision.memory);
    case "refused":
      // Only the background manager is refused; a model's write that reaches here is a bug, not a user's choice.
      throw new Error(`The gate refused a chat write: ${decision.why}`);
    default:
      return proposed(action, decision);
  }
}

function proposed(
  action: ManageAction,
  decision: Extract<GateDecision, { decision: "held" | "awaiting" }>,
): ManageMemoryOutput {
  const { proposal } = decision;
  const cause = decision.decision === "awaiting" ? "already_pending" : decision.restated ? "restated" : "review_mode";
  const what =
    action === "create"
      ? "Saved for the user's review"
      : `This ${action === "update" ? "change" : "deletion"} awaits the user's review`;
  const note = {
    already_pending: "This change already awaits the user's review; nothing new was saved.",
    restated: `${proposal.reason} Not remembered: it awaits the user's approval. Tell the user and ask whether to remember it again.`,
    review_mode: `${what}: nothing changes until they approve it, under this answer or on the Review page. Tell the user.`,
  }[cause];
  return {
    action: "proposed",
    op: action,
    proposalId: proposal.id,
    text: proposal.text ?? "",
    ...(proposal.memoryId ? { id: proposal.memoryId } : {}),
    ...(proposal.validFrom ? { validFrom: proposal.validFrom.toISOString() } : {}),
    ...(proposal.validTo ? { validTo: proposal.validTo.toISOString() } : {}),
    cause,
    reason: cause === "restated" ? proposal.reason : decision.why,
    note,
  };
}

function searchMemoryHandler(ctx: MemoryContext, namespace: string[]) {
  return {
    description: SEARCH_MEMORY_DESCRIPTION,
    inputSchema: searchMemoryInput,
    execute: async (raw: unknown): Promise<MemoryHit[]> => {
      const input = parseInput(searchMemoryInput, raw);
      const results = await searchMemories(ctx, {
        query: input.query,
        limit: input.limit ?? SEARCH_MEMORY_DEFAULT_LIMIT,
        kind: input.kind,
        namespace,
        asOf: input.asOf,
      });
      return results.map(({ memory, score, confidence }) => ({ ...toModelMemory(memory), score, confidence }));
    },
  };
}

function required(value: string | undefined, field: string): string {
  if (!value)
    throw new ValidationError(`\`${field}\` is required for this action.`, [{ path: [field], message: "required" }]);
  return value;
}

const output = (action: AppliedMemoryOutput["action"], memory: Memory): AppliedMemoryOutput => ({
  action,
  ...toModelMemory(memory),
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

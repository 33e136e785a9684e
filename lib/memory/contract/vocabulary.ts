import { z } from "zod";
import { LIMITS } from "./limits";

/**
 * What a model sees of memory, the same wherever one is handed memory: the chat's tools and recall (./tools.ts,
 * lib/chat), MCP (lib/mcp/tools.ts) and the SDK's AI tools (sdk/src/ai.ts). One memory shape, and one tool vocabulary
 * after LangMem's: `manage_memory` (create, update, delete) and `search_memory`. Zod-only, like ./shapes.ts, so the
 * SDK compiles it in.
 */

/** A memory as a model reads it: its words as `text`, and when the fact held, if known. */
export const modelMemory = z.strictObject({
  id: z.string(),
  text: z.string().describe("The memory, one self-contained statement."),
  kind: z.string(),
  namespace: z.array(z.string()).describe("Relative to the caller's root."),
  updatedAt: z.iso.datetime(),
  validFrom: z.iso.datetime().optional().describe("When the fact started to hold, if known."),
  validTo: z.iso.datetime().optional().describe("When it stopped holding (superseded); absent while it holds."),
  pinned: z.literal(true).optional().describe("The user pinned it: it is recalled every turn."),
});
export type ModelMemory = z.infer<typeof modelMemory>;

/** A memory a search (or recall) found, with its relevance in [0, 1] and, from a search, its confidence. */
export const memoryHit = modelMemory.extend({
  score: z.number(),
  confidence: z
    .number()
    .optional()
    .describe(`How likely it answers the query, in [0, 1]; at or above ${LIMITS.confidenceFloor} it is confident.`),
});
export type MemoryHit = z.infer<typeof memoryHit>;

type Instant = Date | string;

/** The fields both a stored memory (the core's, with Dates) and its JSON (the HTTP API's) carry. */
export interface MemoryFields {
  id: string;
  text: string;
  kind: string;
  namespace: readonly string[];
  updatedAt: Instant;
  validFrom: Instant | null;
  validTo: Instant | null;
  pinned: boolean;
}

const iso = (instant: Instant) => (typeof instant === "string" ? instant : instant.toISOString());

/** The one mapping from a stored memory to what a model reads. */
export function toModelMemory(memory: MemoryFields): ModelMemory {
  return {
    id: memory.id,
    text: memory.text,
    kind: memory.kind,
    namespace: [...memory.namespace],
    updatedAt: iso(memory.updatedAt),
    ...(memory.validFrom ? { validFrom: iso(memory.validFrom) } : {}),
    ...(memory.validTo ? { validTo: iso(memory.validTo) } : {}),
    ...(memory.pinned ? { pinned: true as const } : {}),
  };
}

export const MANAGE_MEMORY = "manage_memory";
export const SEARCH_MEMORY = "search_memory";

export const MANAGE_ACTIONS = ["create", "update", "delete"] as const;
export type ManageAction = (typeof MANAGE_ACTIONS)[number];

export interface ManageMemoryInput {
  action: ManageAction;
  content?: string;
  id?: string;
  /** When the fact started to hold; on update, the fact changed in the world then (supersede). */
  validFrom?: string;
}

const VERB_TEXT: Record<ManageAction, string> = {
  create: "save a new memory (pass `content`)",
  update: "replace the content of an existing memory (pass `id` and the full new `content`)",
  delete: "remove a memory that is wrong or that the user asked you to forget (pass `id`)",
};

/** By the verbs allowed, in MANAGE_ACTIONS order: a set of verbs asked for again gets the schema it got before. */
const manageInputs = new Map<string, z.ZodType<ManageMemoryInput>>();

/**
 * manage_memory's input, narrowed to `actions`: its schema and its description list only these verbs. The same set of
 * verbs gets the same schema, so what is derived from it once (the JSON Schema a model is shown,
 * lib/chat/memory-tools.ts) serves every turn.
 */
export function manageMemoryInput(actions: readonly ManageAction[] = MANAGE_ACTIONS): z.ZodType<ManageMemoryInput> {
  const [first, ...rest] = MANAGE_ACTIONS.filter((action) => actions.includes(action));
  if (!first) throw new Error("actionsPermitted must allow at least one action.");
  const allowed: [ManageAction, ...ManageAction[]] = [first, ...rest];
  const key = allowed.join(",");
  let input = manageInputs.get(key);
  if (!input) {
    input = manageInputOf(allowed);
    manageInputs.set(key, input);
  }
  return input;
}

function manageInputOf(allowed: [ManageAction, ...ManageAction[]]): z.ZodType<ManageMemoryInput> {
  const needsId = allowed.some((action) => action !== "create");
  return z.strictObject({
    action: z.enum(allowed).describe(`One of: ${allowed.join(", ")}.`),
    // Bounded by the core, like every other surface's content (./limits.ts).
    content: z
      .string()
      .optional()
      .describe(
        `The memory as one self-contained statement, e.g. 'The user prefers dark mode' (at most ${LIMITS.memoryTextChars} characters).`,
      ),
    ...(needsId ? { id: z.string().optional().describe("The id of an existing memory.") } : {}),
    ...(allowed.includes("create") || allowed.includes("update")
      ? {
          validFrom: z
            .string()
            .optional()
            .describe(
              "The date (YYYY-MM-DD) the fact started to hold, only when the user says when (e.g. 'since last month')." +
                (allowed.includes("update")
                  ? " On update: the fact changed in the world then; the old memory is kept as history, closed at that date, and a new one holds the new content."
                  : ""),
            ),
        }
      : {}),
  }) as z.ZodType<ManageMemoryInput>;
}

export function manageMemoryDescription(actions: readonly ManageAction[] = MANAGE_ACTIONS): string {
  const verbs = MANAGE_ACTIONS.filter((action) => actions.includes(action))
    .map((action) => VERB_TEXT[action])
    .join("; ");
  return (
    "Manage long-term memories about the user that persist across conversations. " +
    `Allowed actions: ${verbs}. Store durable facts, preferences and instructions, not small talk. ` +
    "Never save anything the user's rules forbid; a write that breaks one is refused, naming the rule."
  );
}

/** What one manage_memory call did, and the memory as it now stands. */
export const appliedMemoryOutput = z.strictObject({
  /**
   * `unchanged`: a create of a fact the user already has, which returns that memory and writes nothing (or an update
   * that says what the memory already says).
   * `superseded`: an update with validFrom; the memory is the new one, `supersededId` the old one, kept and closed.
   */
  action: z.enum(["created", "unchanged", "updated", "superseded", "deleted"]),
  ...modelMemory.shape,
  version: z.number().int(),
  supersededId: z.string().optional(),
});

/** A change that waits for the user's approval (their review mode, or a fact they deleted or rejected before). */
export const proposedMemoryOutput = z.strictObject({
  action: z.literal("proposed"),
  /** What the call asked for. */
  op: z.enum(MANAGE_ACTIONS),
  proposalId: z.string(),
  /** The text it would save, or (for a delete) remove. */
  text: z.string(),
  /** update, delete: the memory it would change. */
  id: z.string().optional(),
  validFrom: z.iso.datetime().optional(),
  validTo: z.iso.datetime().optional(),
  /**
   * Why it waits: the user's review mode; it restates a fact the user deleted or rejected (`reason` says when and
   * what they asked); or the same change already waits.
   */
  cause: z.enum(["review_mode", "restated", "already_pending"]),
  reason: z.string(),
  /** What to tell the user. */
  note: z.string(),
});

export const manageMemoryOutput = z.union([appliedMemoryOutput, proposedMemoryOutput]);
export type AppliedMemoryOutput = z.infer<typeof appliedMemoryOutput>;
export type ManageMemoryOutput = z.infer<typeof manageMemoryOutput>;

/** How many memories search_memory returns unless the model asks for another number. */
export const SEARCH_MEMORY_DEFAULT_LIMIT = 5;

export const searchMemoryInput = z.strictObject({
  query: z.string().describe("What to look for, in natural language."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.toolSearchResults)
    .optional()
    .describe(`How many memories to return (default ${SEARCH_MEMORY_DEFAULT_LIMIT}).`),
  kind: z.string().optional().describe("Only memories of this kind, e.g. preference."),
  asOf: z
    .string()
    .optional()
    .describe(
      "A date (YYYY-MM-DD) to ask what held then (e.g. where the user lived in 2020), superseded facts included.",
    ),
});
export type SearchMemoryInput = z.infer<typeof searchMemoryInput>;

export const SEARCH_MEMORY_DESCRIPTION =
  "Search long-term memories about the user. Use it before answering questions about the user's facts, " +
  "preferences or past conversations.";

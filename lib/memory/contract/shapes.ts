import { z } from "zod";
import { LIMITS } from "./limits";

/**
 * The one memory shape: these schemas are the source of the core's types (lib/memory/store/types.ts), of what the
 * serialisers emit (lib/memory/store/serialize.ts), of the OpenAPI document (lib/api/openapi/) and of the SDK's types
 * (sdk/). They import only zod, so the SDK can compile them in.
 */
export const ACTOR_TYPES = ["user", "agent", "extractor", "api", "admin"] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
/** Where a memory's content came from. */
export const SOURCE_TYPES = ["chat", "extraction", "console", "api"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
/** `merged`: folded into another memory by a consolidation run (docs/memory-model.md, "Consolidation"). */
export const MEMORY_STATUSES = ["active", "deleted", "merged"] as const;
export const MEMORY_OPS = ["create", "update", "delete", "restore", "purge"] as const;

export const actorJson = z.strictObject({
  type: z.enum(ACTOR_TYPES),
  id: z.string().describe("User id, model id, extraction run id or API key id."),
});

export const sourceJson = z.strictObject({
  type: z.enum(SOURCE_TYPES),
  threadId: z.string().optional(),
  messageId: z.string().optional(),
  quote: z.string().optional().describe("The exact span of the source message that supports the memory."),
  runId: z.string().optional(),
  threadDeleted: z
    .literal(true)
    .optional()
    .describe("The chat was deleted: its words (the quote) went with it, the memory stayed."),
});

const validity = {
  validFrom: z.iso
    .datetime()
    .nullable()
    .describe("When the fact started to hold in the world (not when it was written); null: not known."),
  validTo: z.iso
    .datetime()
    .nullable()
    .describe("When the fact stopped holding (it was superseded); null: it still holds."),
};

export const memoryJson = z
  .strictObject({
    id: z.uuid(),
    namespace: z.array(z.string()).describe("Relative to the caller's root."),
    key: z.string(),
    kind: z.string(),
    content: z.unknown().describe("The structured value; null once purged."),
    text: z.string().describe("The searchable rendering of content."),
    status: z.enum(MEMORY_STATUSES),
    version: z.number().int(),
    metadata: z.record(z.string(), z.unknown()),
    pinned: z.boolean().describe("Pinned memories are recalled into every chat turn."),
    ...validity,
    mergedInto: z.uuid().nullable().describe("Status merged: the memory this one was folded into."),
    mergedFrom: z
      .array(z.uuid())
      .describe("The memories folded into this one (each kept, status merged, with its own source quote)."),
    support: z
      .number()
      .int()
      .min(1)
      .describe("How many times the fact was stated: this memory and every one folded into it."),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    source: sourceJson,
    actor: actorJson,
  })
  .meta({ id: "Memory" });

export const memoryVersionJson = z
  .strictObject({
    version: z.number().int(),
    op: z.enum(MEMORY_OPS),
    kind: z.string(),
    content: z.unknown(),
    text: z.string(),
    status: z.enum(MEMORY_STATUSES),
    metadata: z.record(z.string(), z.unknown()),
    pinned: z.boolean(),
    ...validity,
    actor: actorJson,
    reason: z.string().nullable(),
    source: sourceJson,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "MemoryVersion" });

export const searchResultJson = z.strictObject({
  memory: memoryJson,
  score: z
    .number()
    .min(0)
    .max(1)
    .describe("Relevance in [0, 1], comparable within one result list: the legs' scores combined by weight."),
  lexical: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("BM25 over your own memories, as the share of the query's term weight matched (1 = all of it)."),
  vector: z.number().min(0).max(1).optional().describe("Cosine similarity of the embeddings, floored at 0."),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .describe(
      "How likely this memory answers the query, in [0, 1], comparable across queries (unlike `score`). At or above " +
        `${LIMITS.confidenceFloor} the hit is confident: the chat recalls only confident hits.`,
    ),
});

export type MemoryJson = z.infer<typeof memoryJson>;
export type MemoryVersionJson = z.infer<typeof memoryVersionJson>;
export type SearchResultJson = z.infer<typeof searchResultJson>;

/* ---------- review (docs/memory-model.md) ---------- */

export const PROPOSAL_OPS = ["insert", "update", "delete", "instructions", "merge"] as const;
export const PROPOSAL_STATUSES = ["pending", "approved", "rejected"] as const;
export const REVIEW_MODES = ["off", "deletes", "all"] as const;

export const proposalJson = z
  .strictObject({
    id: z.uuid(),
    op: z.enum(PROPOSAL_OPS),
    memoryId: z.uuid().optional().describe("update, delete: the memory it changes."),
    expectedVersion: z.number().int().optional().describe("update, delete: the memory's version the proposer saw."),
    namespace: z.array(z.string()).describe("Relative to the caller's root."),
    kind: z.string().optional(),
    content: z.unknown().optional().describe("insert, update: the content it would write."),
    text: z.string().optional().describe("The text it would write (insert, update) or remove (delete)."),
    validFrom: z.iso
      .datetime()
      .optional()
      .describe(
        "insert: when the fact started to hold. update: the fact changed in the world then — approving supersedes (the old memory is kept, closed at this date, and a new one holds the new content).",
      ),
    validTo: z.iso.datetime().optional().describe("insert: when the fact stopped holding."),
    quote: z.string().optional().describe("The exact words of the source message that support it."),
    threadId: z.string().optional(),
    messageId: z.string().optional(),
    runId: z.string().optional(),
    reason: z.string().describe("Why it was proposed."),
    actor: actorJson,
    status: z.enum(PROPOSAL_STATUSES),
    decisionReason: z.string().optional().describe("The user's reason for rejecting it."),
    createdAt: z.iso.datetime(),
    decidedAt: z.iso.datetime().optional(),
  })
  .meta({ id: "Proposal" });

export const ruleJson = z
  .strictObject({
    id: z.uuid(),
    text: z.string().describe('What the models must not remember, e.g. "never remember anything about my health".'),
    terms: z.array(z.string()).describe("A write whose words contain one of these is not made."),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Rule" });

export const settingsJson = z
  .strictObject({
    review: z
      .enum(REVIEW_MODES)
      .describe(
        "`all`: every change a model asks for (the chat's tools and background extraction) is a proposal; `deletes` (default): a model's deletes beyond the first in one chat turn or run are proposals; `off`: everything applies (still validated). Whatever the mode, the chat model restating a fact you deleted or rejected is a proposal.",
      ),
  })
  .meta({ id: "Settings" });

export type ProposalJson = z.infer<typeof proposalJson>;
export type RuleJson = z.infer<typeof ruleJson>;
export type SettingsJson = z.infer<typeof settingsJson>;

/* ---------- procedural memory (docs/memory-model.md) ---------- */

export const FEEDBACK_RATINGS = ["up", "down"] as const;
export const INSTRUCTION_AUTHORS = ["user", "optimizer"] as const;

export const feedbackJson = z
  .strictObject({
    id: z.uuid(),
    messageId: z.string().describe("The assistant answer it rates."),
    threadId: z.string(),
    rating: z.enum(FEEDBACK_RATINGS),
    comment: z.string().optional(),
    instructionsVersion: z.number().int().optional().describe("The instructions version the answer ran with."),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Feedback" });

export const instructionsJson = z
  .strictObject({
    text: z.string().describe("The user's standing preferences, shown to the chat model every turn."),
    version: z.number().int(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Instructions" });

export const instructionVersionJson = z
  .strictObject({
    version: z.number().int(),
    text: z.string(),
    changedBy: z.strictObject({
      type: z.enum(INSTRUCTION_AUTHORS),
      id: z.string().describe("The user's id, or the optimizer's model."),
    }),
    reason: z.string(),
    feedbackIds: z.array(z.uuid()).describe("optimizer: the feedback the change acts on."),
    runId: z.uuid().optional().describe("optimizer: the run that proposed it."),
    proposalId: z.uuid().optional().describe("The proposal approved to make it, when review was on."),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "InstructionVersion" });

export type FeedbackJson = z.infer<typeof feedbackJson>;
export type InstructionsJson = z.infer<typeof instructionsJson>;
export type InstructionVersionJson = z.infer<typeof instructionVersionJson>;

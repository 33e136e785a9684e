import { z } from "zod";
import {
  createMemoryInputSchema,
  fieldFilterSchema,
  instantInput,
  kindInput,
  LIMITS,
  namespaceInput,
  queryInput,
  SEARCH_MODES,
  statusFilterSchema,
  updateMemoryFields,
} from "@/lib/memory/contract";

/**
 * Request shapes of /api/v1/memories (docs/api.md), built from the core's own input fields so every limit and its
 * error are the core's. Strict: an unknown field is a 422, not silently dropped. Imported from the core's zod-only
 * modules, so the SDK (sdk/) compiles these in and types its calls with them.
 */
export const createMemoryBody = createMemoryInputSchema.pick({
  content: true,
  kind: true,
  namespace: true,
  key: true,
  metadata: true,
  pinned: true,
  validFrom: true,
  validTo: true,
});

export const updateMemoryBody = updateMemoryFields;

export const listMemoriesQuery = z.strictObject({
  q: queryInput.optional(),
  kind: kindInput.optional(),
  status: statusFilterSchema.optional(),
  namespace: z.string().max(LIMITS.namespaceTextChars).optional(),
  pinned: z.enum(["true", "false"]).optional(),
  asOf: instantInput
    .optional()
    .describe("Only facts that held then (ISO date or date-time), superseded ones included."),
  limit: z.coerce.number().int().min(1).max(LIMITS.listPage).optional(),
  cursor: z.string().max(LIMITS.cursorChars).optional(),
  minConfidence: z.coerce
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(`With q: only memories matched at least this confidently (${LIMITS.confidenceFloor}: confident ones).`),
});

export const deleteMemoryQuery = z.strictObject({ purge: z.enum(["true", "false"]).optional() });

export const searchMemoriesBody = z.strictObject({
  query: z.string(),
  limit: z.number().int().min(1).max(LIMITS.searchResults).optional(),
  kind: z.union([kindInput, z.array(kindInput).min(1).max(LIMITS.filterKinds)]).optional(),
  filter: fieldFilterSchema.optional(),
  namespace: namespaceInput.optional(),
  mode: z.enum(SEARCH_MODES).optional(),
  asOf: instantInput
    .optional()
    .describe("Facts that held then, superseded ones included; without it, superseded facts are left out."),
  minConfidence: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      `Only hits at least this confident (${LIMITS.confidenceFloor}: the confident ones); all ranked hits without.`,
    ),
});

/** A batch body may be this large: a thousand memories of a few kilobytes each. */
export const MAX_BATCH_BODY_BYTES = 8 * 1024 * 1024;

/** The items are checked one by one (as createMemoryBody), so one bad item cannot refuse the whole batch. */
export const batchBody = z.strictObject({
  memories: z
    .array(z.unknown())
    .min(1, "Send at least one memory.")
    .max(LIMITS.batchItems, `A batch holds at most ${LIMITS.batchItems} memories.`),
});

export const noQuery = z.strictObject({});

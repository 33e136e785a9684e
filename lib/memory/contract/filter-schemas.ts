import { z } from "zod";
import { instantValue, kindInput, namespaceInput } from "./inputs";
import { LIMITS } from "./limits";
import { SOURCE_TYPES } from "./shapes";

// The filter language callers send, apart from its SQL (lib/memory/store/filters.ts), so the SDK can compile it in.

/** A field path inside metadata or content: `priority`, `project.name` (up to four levels). */
const fieldPath = z.string().regex(/^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,3}$/, "invalid field name");
export const scalar = z.union([z.string().max(LIMITS.filterValueChars), z.number(), z.boolean(), z.null()]);
const orderable = z.union([z.string().max(LIMITS.filterValueChars), z.number()]);
const operators = z
  .strictObject({
    $eq: scalar,
    $ne: scalar,
    $gt: orderable,
    $gte: orderable,
    $lt: orderable,
    $lte: orderable,
    $in: z.array(scalar).min(1).max(LIMITS.filterValues),
    $nin: z.array(scalar).min(1).max(LIMITS.filterValues),
  })
  .partial()
  .refine((ops) => Object.keys(ops).length > 0, "an operator object needs at least one operator");

/** `{ field: value }` means equality; `{ field: { $gte: 2, $lt: 5 } }` combines operators with AND. */
export const fieldFilterSchema = z
  .record(fieldPath, z.union([scalar, operators]))
  .refine((filter) => Object.keys(filter).length <= LIMITS.filterFields, `at most ${LIMITS.filterFields} fields`);
export type FieldFilter = z.infer<typeof fieldFilterSchema>;

export const statusFilterSchema = z.enum(["active", "deleted", "merged", "all"]);

export type StatusFilter = z.infer<typeof statusFilterSchema>;

export const memoryFiltersSchema = z.strictObject({
  kind: z.union([kindInput, z.array(kindInput).min(1).max(LIMITS.filterKinds)]).optional(),
  status: statusFilterSchema.optional(),
  /** Where the current content came from (chat, extraction, console, api). */
  source: z.enum(SOURCE_TYPES).optional(),
  /** Relative namespace prefix (whole segments). */
  namespace: namespaceInput.optional(),
  metadata: fieldFilterSchema.optional(),
  content: fieldFilterSchema.optional(),
  pinned: z.boolean().optional(),
  /** Facts that held in the world at this instant (validFrom/validTo), superseded ones included. */
  asOf: instantValue.optional(),
  timeRange: z
    .strictObject({
      field: z.enum(["createdAt", "updatedAt"]).default("updatedAt"),
      after: z.coerce.date().optional(),
      before: z.coerce.date().optional(),
    })
    .optional(),
});
export type MemoryFilters = z.input<typeof memoryFiltersSchema>;

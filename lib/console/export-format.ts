import { z } from "zod";
import { MAX_BATCH_BODY_BYTES } from "@/lib/api/memory-requests";
import { LIMITS } from "@/lib/memory/contract";

export const EXPORT_FORMAT = "memory-ledger/export";
export const EXPORT_VERSION = 1;
/**
 * What one import may carry: the bounds of one REST batch (POST /api/v1/memories/batch), so a console session can
 * write no more in one request than a key can.
 */
export const MAX_IMPORT_MEMORIES = LIMITS.batchItems;
export const MAX_IMPORT_BYTES = MAX_BATCH_BODY_BYTES;

const actor = z.object({ type: z.string().max(32), id: z.string().max(LIMITS.idChars) });
const source = z.object({
  type: z.string().max(32),
  threadId: z.string().max(LIMITS.idChars).optional(),
  messageId: z.string().max(LIMITS.idChars).optional(),
  quote: z.string().max(LIMITS.quoteChars).optional(),
  runId: z.string().max(LIMITS.idChars).optional(),
});

/** One version as exported; history is carried for the record and not replayed on import. */
export const exportedVersionSchema = z.object({
  version: z.number().int().positive(),
  op: z.enum(["create", "update", "delete", "restore", "purge"]),
  kind: z.string().max(LIMITS.kindChars),
  content: z.unknown(),
  text: z.string(),
  status: z.enum(["active", "deleted", "merged"]),
  actor,
  reason: z.string().nullable(),
  source,
  createdAt: z.iso.datetime({ offset: true }),
});

export const exportedMemorySchema = z.object({
  id: z.uuid(),
  namespace: z.array(z.string()).max(16),
  key: z.string().min(1).max(LIMITS.keyChars),
  kind: z.string().min(1).max(LIMITS.kindChars),
  content: z.unknown(),
  text: z.string(),
  status: z.enum(["active", "deleted", "merged"]),
  version: z.number().int().positive(),
  metadata: z.record(z.string().min(1).max(LIMITS.metadataKeyChars), z.json()).default({}),
  // Absent in files exported before memories had them.
  pinned: z.boolean().default(false),
  validFrom: z.iso.datetime({ offset: true }).nullable().default(null),
  validTo: z.iso.datetime({ offset: true }).nullable().default(null),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  source,
  actor,
  history: z.array(exportedVersionSchema).default([]),
});
export type ExportedMemory = z.infer<typeof exportedMemorySchema>;

/** The instructions as exported: the current text is what an import brings back (absent in older files). */
export const exportedInstructionsSchema = z.object({
  current: z
    .object({ version: z.number().int().positive(), text: z.string().max(LIMITS.instructionsChars) })
    .nullable(),
});

export const exportFileSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.iso.datetime({ offset: true }),
  memories: z.array(exportedMemorySchema),
  instructions: exportedInstructionsSchema.optional(),
});
export type ExportFile = z.infer<typeof exportFileSchema>;

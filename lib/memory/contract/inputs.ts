import { z } from "zod";
import { LIMITS } from "./limits";
import { validateNamespace } from "./namespace-rules";
import { SOURCE_TYPES } from "./shapes";

/**
 * The fields callers send, each bounded once (./limits.ts). Surfaces build their request schemas from these rather
 * than restating a limit, so an over-limit value gets the core's error everywhere.
 */
export const kindInput = z.string().min(1).max(LIMITS.kindChars);
export const keyInput = z.string().min(1).max(LIMITS.keyChars);
/** A namespace relative to the caller's root, checked segment by segment (the error names the rule broken). */
export const namespaceInput = z.array(z.string()).transform((segments) => validateNamespace(segments));
export const metadataInput = z
  .record(z.string().min(1).max(LIMITS.metadataKeyChars), z.json())
  .refine(
    (metadata) => new TextEncoder().encode(JSON.stringify(metadata)).length <= LIMITS.metadataBytes,
    `metadata is limited to ${LIMITS.metadataBytes / 1024} KB`,
  );
export const reasonInput = z.string().max(LIMITS.reasonChars);
export const queryInput = z.string().trim().min(1).max(LIMITS.queryChars);
/** Content is shaped by its kind (lib/memory/core/kinds.ts); here it only has to be present. */
export const contentInput = z.unknown().refine((value) => value !== undefined, "content is required");

export const provenanceInput = z.strictObject({
  source: z.enum(SOURCE_TYPES).optional(),
  threadId: z.string().min(1).max(LIMITS.idChars).optional(),
  messageId: z.string().min(1).max(LIMITS.idChars).optional(),
  quote: z.string().min(1).max(LIMITS.quoteChars).optional(),
  runId: z.string().min(1).max(LIMITS.idChars).optional(),
});

/** Years PostgreSQL and JavaScript agree on (year 0 and beyond 9999 would fail in the database, not here). */
function instantRange() {
  return z.date().refine((date) => {
    const year = date.getUTCFullYear();
    return year >= 1 && year <= 9999;
  }, "must be between the years 1 and 9999");
}

/** A point in time: an ISO date (`2026-11-01`, midnight UTC) or an ISO date-time with an offset. */
export const instantInput = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "expected an ISO date or date-time" })
  .transform((value) => new Date(value))
  .pipe(instantRange());
/** What a surface sends (JSON has no dates); the core also takes Dates, as a surface's parsed input carries them. */
export const instantValue = z.union([z.date().pipe(instantRange()), instantInput]);
/** When a fact held in the world; null clears it. */
export const validityInput = instantInput.nullable();
export const validityValue = instantValue.nullable();

export const SEARCH_MODES = ["hybrid", "lexical", "vector"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const createMemoryInputSchema = z.strictObject({
  content: contentInput,
  kind: kindInput.optional(),
  namespace: namespaceInput.optional(),
  key: keyInput.optional(),
  metadata: metadataInput.optional(),
  pinned: z.boolean().optional(),
  validFrom: validityValue.optional(),
  validTo: validityValue.optional(),
  reason: reasonInput.optional(),
  provenance: provenanceInput.optional(),
});
export type CreateMemoryInput = z.input<typeof createMemoryInputSchema>;

/** The version a writer saw: another version since is a conflict. */
export const expectedVersionInput = z.number().int().positive();

/**
 * What an update may change, declared once: the HTTP body is exactly this (lib/api/memory-requests.ts), and the store
 * adds its write options and the rule that something must change (./store.ts).
 */
export const updateMemoryFields = z.strictObject({
  content: contentInput.optional(),
  kind: kindInput.optional(),
  metadata: metadataInput.optional(),
  pinned: z.boolean().optional().describe("Pinned memories are recalled into every chat turn."),
  validFrom: validityValue.optional().describe("When the fact started to hold (ISO date or date-time); null clears."),
  validTo: validityValue.optional().describe("When it stopped holding; null clears. Not before validFrom."),
  expectedVersion: expectedVersionInput.optional(),
});

import { z } from "zod";

/**
 * Response shapes of the REST API (DESIGN §7) as zod schemas, for the OpenAPI document. The routes build these
 * objects with lib/memory's serializers; tests check the document against what the routes answer.
 */
const actor = z.strictObject({
  type: z.enum(["user", "agent", "extractor", "api", "admin"]),
  id: z.string().describe("User id, model id, extraction run id or API key id."),
});

const source = z.strictObject({
  type: z.enum(["chat", "extraction", "console", "api"]),
  threadId: z.string().optional(),
  messageId: z.string().optional(),
  quote: z.string().optional().describe("The exact span of the source message that supports the memory."),
  runId: z.string().optional(),
});

export const memoryJson = z
  .strictObject({
    id: z.uuid(),
    namespace: z.array(z.string()).describe("Relative to the caller's root."),
    key: z.string(),
    kind: z.string(),
    content: z.unknown().describe("The structured value; null once purged."),
    text: z.string().describe("The searchable rendering of content."),
    status: z.enum(["active", "deleted"]),
    version: z.number().int(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    source,
    actor,
  })
  .meta({ id: "Memory" });

export const memoryVersionJson = z
  .strictObject({
    version: z.number().int(),
    op: z.enum(["create", "update", "delete", "restore", "purge"]),
    kind: z.string(),
    content: z.unknown(),
    text: z.string(),
    status: z.enum(["active", "deleted"]),
    metadata: z.record(z.string(), z.unknown()),
    actor,
    reason: z.string().nullable(),
    source,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "MemoryVersion" });

export const memoryResponse = z.strictObject({ memory: memoryJson });
export const memoryListResponse = z.strictObject({
  memories: z.array(memoryJson),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});
export const historyResponse = z.strictObject({ versions: z.array(memoryVersionJson) });
export const searchResponse = z.strictObject({
  results: z.array(
    z.strictObject({ memory: memoryJson, score: z.number().describe("Fused rank score, higher is better.") }),
  ),
});
export const meResponse = z.strictObject({
  userId: z.uuid(),
  role: z.enum(["user", "admin"]),
  root: z.array(z.string()).describe("The namespace root everything the caller touches lives under."),
});

export const extractionRunJson = z
  .strictObject({
    id: z.string(),
    threadId: z.string(),
    status: z.enum(["queued", "running", "succeeded", "failed"]),
    messages: z.strictObject({ from: z.number().int(), through: z.number().int() }),
    model: z.string().nullable(),
    opsProposed: z.array(z.unknown()),
    opsApplied: z.array(z.unknown()),
    opsRejected: z.array(z.unknown()).describe("Each rejected op with the reason it was refused."),
    tokens: z.strictObject({ input: z.number().int().nullable(), output: z.number().int().nullable() }),
    attempts: z.number().int(),
    error: z.string().nullable(),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ExtractionRun" });

export const threadExtractionResponse = z.strictObject({
  threadId: z.string(),
  extractedThrough: z.number().int().describe("Position of the last message extraction has read."),
  runs: z.array(extractionRunJson).describe("Newest first."),
});

export const extractionQueuedResponse = z.strictObject({ threadId: z.string(), queued: z.literal(true) });

export const errorResponseBody = z
  .strictObject({
    error: z.strictObject({
      code: z.enum([
        "bad_request",
        "unauthorized",
        "forbidden",
        "not_found",
        "conflict",
        "payload_too_large",
        "unprocessable",
        "rate_limited",
        "internal",
        "unavailable",
      ]),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "Error" });

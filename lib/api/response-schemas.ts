import { z } from "zod";
import { ERROR_CODES } from "@/lib/errors";
import { memoryJson, memoryVersionJson, proposalJson, searchResultJson } from "@/lib/memory/contract";

/**
 * Response shapes of the REST API (docs/api.md) as zod schemas, for the OpenAPI document. The routes build these
 * objects with lib/memory's serializers; tests check the document against what the routes answer.
 */
export const memoryResponse = z.strictObject({ memory: memoryJson });
export const memoryListResponse = z.strictObject({
  memories: z.array(memoryJson),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});
export const batchResponse = z.strictObject({
  created: z.array(memoryJson).describe("The memories written, in the order they were sent."),
  rejected: z
    .array(
      z.strictObject({
        index: z.number().int().describe("The item's position in `memories`."),
        error: z.strictObject({ code: z.enum(ERROR_CODES), message: z.string() }),
      }),
    )
    .describe("The items not written, each with the error a single create would have given."),
});
export const historyResponse = z.strictObject({ versions: z.array(memoryVersionJson) });
export const searchResponse = z.strictObject({ results: z.array(searchResultJson) });
export const meResponse = z.strictObject({
  userId: z.uuid(),
  role: z.enum(["user", "admin"]),
  root: z.array(z.string()).describe("The namespace root everything the caller touches lives under."),
});

export const extractionRunJson = z
  .strictObject({
    id: z.string(),
    threadId: z.string(),
    status: z
      .enum(["queued", "running", "succeeded", "failed", "skipped"])
      .describe("`skipped`: the daily budget was reached and the model was not called; `error` says why."),
    messages: z.strictObject({ from: z.number().int(), through: z.number().int() }),
    model: z.string().nullable(),
    opsProposed: z.array(z.unknown()),
    opsApplied: z.array(z.unknown()),
    opsRejected: z.array(z.unknown()).describe("Each rejected op with the reason it was refused."),
    tokens: z.strictObject({ input: z.number().int().nullable(), output: z.number().int().nullable() }),
    attempts: z.number().int(),
    error: z.string().nullable(),
    revertedAt: z.iso.datetime().nullable().describe("When the user undid this run's applied ops; null if never."),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ExtractionRun" });

export const threadExtractionResponse = z.strictObject({
  threadId: z.string(),
  extractedThrough: z.number().int().describe("Position of the last message extraction has read."),
  runs: z.array(extractionRunJson).describe("The newest 20, newest first."),
  truncated: z.boolean().describe("The thread has older runs than those listed."),
  pendingProposals: z
    .array(
      z.strictObject({
        runId: z.string().nullable().describe("The extraction run that proposed them; null for the chat's own."),
        messageId: z.string().nullable(),
        count: z.number().int(),
      }),
    )
    .describe("Changes from this chat that wait for the user's review, by run and source message."),
});

export const revertRunResponse = z.strictObject({
  reverted: z.array(z.uuid()).describe("Memories put back as they were before the run, each with a new version."),
  skipped: z
    .array(z.strictObject({ memoryId: z.string(), reason: z.string() }))
    .describe("Memories left as they are: changed since the run (that change stands), purged, or gone."),
});

export const revertTurnResponse = z.strictObject({
  messageId: z.string().describe("The answer whose turn was undone."),
  reverted: z.array(z.uuid()).describe("Memories put back as they were before the turn, each with a new version."),
  skipped: z
    .array(z.strictObject({ memoryId: z.string(), reason: z.string() }))
    .describe("Memories left as they are: changed since the turn (that change stands), purged, or gone."),
  withdrawn: z.array(z.uuid()).describe("The turn's proposals that still waited for review, now rejected."),
});

export const extractionQueuedResponse = z.strictObject({ threadId: z.string(), queued: z.literal(true) });

const usageTotalsJson = z.strictObject({
  calls: z.number().int().describe("Units of model calls: chat turns, titles, extraction attempts."),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number().describe("Cost of the priced calls in US dollars."),
  unpricedCalls: z.number().int().describe("Calls of models without a price: tokens counted, cost unknown."),
});

export const usageResponse = z.strictObject({
  from: z.iso.date(),
  to: z.iso.date(),
  days: z
    .array(
      usageTotalsJson.extend({
        date: z.iso.date().describe("UTC day."),
        byKind: z.strictObject({ chat: usageTotalsJson, extraction: usageTotalsJson }),
      }),
    )
    .describe("Oldest first; days without usage are left out."),
  budget: z.strictObject({
    dailyUsd: z.number().nullable().describe("EXTRACTION_DAILY_BUDGET_USD; null when there is no budget."),
    spentTodayUsd: z.number().describe("Spent today (UTC), chat and extraction together."),
    reached: z.boolean().describe("Background extraction is stopped until tomorrow (UTC)."),
  }),
});

export const errorResponseBody = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      details: z.unknown().optional(),
    }),
    memory: memoryJson.optional().describe("A proposal's 409: the memory as it stands now."),
    proposal: proposalJson.optional().describe("A proposal's 409: the proposal as it stands now."),
  })
  .meta({ id: "Error" });

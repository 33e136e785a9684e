import { z } from "zod";
import { LIMITS } from "@/lib/memory/contract";

/** Request and response shapes of consolidation runs and memory health (docs/memory-model.md, "Consolidation"). */
export const startConsolidationBody = z.strictObject({});

export const listConsolidationRunsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(LIMITS.listPage).optional(),
  cursor: z.string().max(LIMITS.cursorChars).optional(),
});

export const consolidationRunJson = z
  .strictObject({
    id: z.uuid(),
    trigger: z
      .enum(["manual", "after_extraction", "daily"])
      .describe("By hand, after extraction added CONSOLIDATION_AFTER memories, or the daily pass."),
    status: z
      .enum(["queued", "running", "succeeded", "failed", "skipped"])
      .describe("`skipped`: the daily budget was reached, or another run of the user was in progress."),
    model: z.string().nullable(),
    groups: z
      .array(z.unknown())
      .describe("Each group shown to the model: its memories (ids and versions) and those it left as they were."),
    complete: z
      .boolean()
      .describe(
        "It showed the model every group it found, pairs close in meaning included; false when groups were left for a later run.",
      ),
    opsProposed: z.array(z.unknown()),
    opsApplied: z
      .array(z.unknown())
      .describe("Each applied op (merge, supersede, expire) with the memory versions it wrote."),
    opsRejected: z.array(z.unknown()).describe("Each op refused or held for review, with the reason."),
    modelCalls: z.number().int(),
    tokens: z.strictObject({ input: z.number().int().nullable(), output: z.number().int().nullable() }),
    costUsd: z.number().nullable().describe("What the model calls cost; null when the model has no price."),
    attempts: z.number().int(),
    error: z.string().nullable(),
    revertedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ConsolidationRun" });

export const consolidationRunResponse = z.strictObject({ run: consolidationRunJson });
export const consolidationRunListResponse = z.strictObject({
  runs: z.array(consolidationRunJson),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});

export const memoryHealthResponse = z
  .strictObject({
    memories: z.number().int().describe("Active memories."),
    duplicates: z.number().int().describe("Pairs of active memories that say the same: what a run would merge."),
    conflicts: z
      .number()
      .int()
      .describe("Pairs of active memories giving different values for one subject: what a run would supersede."),
    expired: z
      .number()
      .int()
      .describe("Active plans and appointments whose date has passed, still recalled: what a run would expire."),
    neverRecalled: z.number().int().describe("Active memories no chat turn has recalled or searched."),
    pendingProposals: z.number().int(),
    lastConsolidation: consolidationRunJson.nullable(),
  })
  .meta({ id: "MemoryHealth" });

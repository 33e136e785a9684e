import { type ConsolidationRun, queueConsolidationRun } from "@/lib/memory/consolidation";
import type { MemoryContext } from "@/lib/memory/core";
import { getJobQueue } from "./jobs";

/**
 * "Tidy up now" (REST and the console): the run is recorded as queued, then its job; a job already waiting for the
 * user takes it instead (lib/memory/consolidation/runs.ts), so two runs of one user never overlap.
 */
export async function startConsolidation(ctx: MemoryContext): Promise<ConsolidationRun> {
  const run = await queueConsolidationRun(ctx, "manual");
  await (await getJobQueue()).enqueueConsolidation({ userId: ctx.principal.userId, runId: run.id, trigger: "manual" });
  return run;
}

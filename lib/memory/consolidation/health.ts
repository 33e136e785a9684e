import { and, desc, eq, sql } from "drizzle-orm";
import { consolidationRuns } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import type { MemoryContext } from "@/lib/memory/core";
import { countPendingProposals } from "@/lib/memory/review";
import { findCandidates } from "./candidates";
import { type ConsolidationRun, serializeConsolidationRun } from "./runs";

export interface MemoryHealth {
  /** Active memories. */
  memories: number;
  /** Pairs of live memories that say the same (what a run would merge). */
  duplicates: number;
  /** Pairs of live memories filling one subject slot with different values (what a run would supersede). */
  conflicts: number;
  /** Live time-bound facts whose date has passed and that are still recalled (what a run would expire). */
  expired: number;
  /** Active memories no chat turn has recalled or searched. */
  neverRecalled: number;
  pendingProposals: number;
  lastConsolidation: ReturnType<typeof serializeConsolidationRun> | null;
}

/**
 * How clean the user's memory is (docs/memory-model.md, "Memory health"), counted from the same candidate finder a
 * consolidation run works from, so what the card shows is what the next run would look at.
 */
export async function memoryHealth(ctx: MemoryContext): Promise<MemoryHealth> {
  const userId = ctx.principal.userId;
  const candidates = await findCandidates(ctx, ctx.clock());
  const [counts, last] = await asUser(ctx, async (unit) => {
    const [row] = await unit.rows<{ memories: number; neverRecalled: number }>(sql`
      select count(*)::int as memories,
        count(*) filter (where not exists (
          select 1 from memory_access a where a.user_id = ${userId} and a.memory_id = m.id))::int as "neverRecalled"
      from memories m
      where m.user_id = ${userId} and m.status = 'active'`);
    const [run] = await unit.db
      .select()
      .from(consolidationRuns)
      .where(and(eq(consolidationRuns.userId, userId)))
      .orderBy(desc(consolidationRuns.createdAt), desc(consolidationRuns.id))
      .limit(1);
    return [row, run as ConsolidationRun | undefined] as const;
  });
  return {
    memories: Number(counts?.memories ?? 0),
    duplicates: candidates.pairs.filter((pair) => pair.relation === "duplicate").length,
    conflicts: candidates.pairs.filter((pair) => pair.relation === "slot").length,
    expired: candidates.dated.length,
    neverRecalled: Number(counts?.neverRecalled ?? 0),
    pendingProposals: await countPendingProposals(ctx),
    lastConsolidation: last ? serializeConsolidationRun(last) : null,
  };
}

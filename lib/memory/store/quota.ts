import { and, eq, sql } from "drizzle-orm";
import { memories } from "@/lib/db/schema";
import type { UnitOfWork } from "@/lib/db/unit-of-work";
import { type MemoryContext, QuotaExceededError, textArray } from "@/lib/memory/core";

/**
 * Refuses a write that would make `adding` more memories active when the user would then hold more than their quota
 * (ctx.memoryQuota), before it writes anything: a store call may run inside a caller's unit of work (an extraction
 * run, a proposal's acceptance), which would keep rows written before a refusal. Counted inside the write's
 * transaction under the user's writer lock (serializeUserWrites, taken first by every writer), so two writers cannot
 * both take the last place; a write that adds nothing (an edit, a profile written again) passes even over a lowered
 * quota. The count is the user's memory_corpus row, which the statistics triggers keep at the number of active
 * memories (migration 0024): one row read by key, however many memories the user has.
 */
export async function admitActivated(ctx: MemoryContext, unit: UnitOfWork, adding: number): Promise<void> {
  const quota = ctx.memoryQuota;
  if (quota === undefined || adding === 0) return;
  const [corpus] = await unit.rows<{ docs: number }>(
    sql`select docs from memory_corpus where user_id = ${unit.userId}::uuid`,
  );
  const active = Number(corpus?.docs ?? 0);
  if (active + adding <= quota) return;
  throw new QuotaExceededError(
    `Memory quota reached: an account may hold ${memoriesCount(quota)}; this one holds ${active.toLocaleString("en")}` +
      ` and this write would add ${adding.toLocaleString("en")}. Nothing was written. Delete or purge memories to make room.`,
  );
}

/**
 * How many of a create's rows would be active memories that are not now: each new row, except a one-per-namespace
 * document (profile) that is already active, which the create updates in place. A row whose key another memory
 * already holds is counted too (it is refused, and the batch that carries it is judged as sent).
 */
export async function newlyActive(
  ctx: MemoryContext,
  unit: UnitOfWork,
  candidates: ReadonlyArray<{ item: { singletonKey?: string; namespace: string[] } }>,
): Promise<number> {
  if (ctx.memoryQuota === undefined) return 0;
  const slots = new Set<string>();
  let adding = 0;
  for (const { item } of candidates) {
    if (!item.singletonKey) {
      adding++;
      continue;
    }
    const slot = JSON.stringify([item.namespace, item.singletonKey]);
    if (slots.has(slot)) continue;
    slots.add(slot);
    const [standing] = await unit.db
      .select({ status: memories.status })
      .from(memories)
      .where(
        and(
          eq(memories.userId, unit.userId),
          sql`${memories.namespace} = ${textArray(item.namespace)}`,
          eq(memories.key, item.singletonKey),
        ),
      );
    if (standing?.status !== "active") adding++;
  }
  return adding;
}

const memoriesCount = (n: number) => `${n.toLocaleString("en")} active ${n === 1 ? "memory" : "memories"}`;

import { and, desc, eq, inArray } from "drizzle-orm";
import { extractionRuns, threads } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import type { MemoryContext } from "@/lib/memory/core";
import { recordWebhookEvents, runCompletedEvent } from "@/lib/memory/webhooks";

export type ExtractionRun = typeof extractionRuns.$inferSelect;

/** The newest runs of one of the caller's threads, or null when the caller has no such thread. */
export async function threadExtractionRuns(ctx: MemoryContext, threadId: string, limit = 20) {
  const userId = ctx.principal.userId;
  return asUser(ctx, async ({ db: tx }) => {
    const [thread] = await tx
      .select({ extractedThrough: threads.extractedThrough })
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.id, threadId)));
    if (!thread) return null;
    const runs = await tx
      .select()
      .from(extractionRuns)
      .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.threadId, threadId)))
      .orderBy(desc(extractionRuns.createdAt))
      .limit(limit);
    return { extractedThrough: thread.extractedThrough, runs };
  });
}

export function serializeRun(run: ExtractionRun) {
  return {
    id: run.id,
    threadId: run.threadId,
    status: run.status,
    messages: { from: run.fromPosition, through: run.throughPosition },
    model: run.model,
    opsProposed: run.opsProposed,
    opsApplied: run.opsApplied,
    opsRejected: run.opsRejected,
    tokens: { input: run.inputTokens, output: run.outputTokens },
    attempts: run.attempts,
    error: run.error,
    revertedAt: run.revertedAt?.toISOString() ?? null,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/** The thread of one of the caller's failed runs, which a retry would extract again; null for anything else. */
export async function failedRunThread(ctx: MemoryContext, runId: string): Promise<string | null> {
  const [run] = await asUser(ctx, ({ db }) =>
    db
      .select({ threadId: extractionRuns.threadId })
      .from(extractionRuns)
      .where(
        and(
          eq(extractionRuns.userId, ctx.principal.userId),
          eq(extractionRuns.id, runId),
          eq(extractionRuns.status, "failed"),
        ),
      ),
  );
  return run?.threadId ?? null;
}

/** The run a job opened and no attempt has finished (queued or running). */
export const openRunOfJob = (userId: string, jobId: string) =>
  and(
    eq(extractionRuns.userId, userId),
    eq(extractionRuns.jobId, jobId),
    inArray(extractionRuns.status, ["running", "queued"]),
  );

export const ABANDONED_RUN_ERROR =
  "Gave up: the worker stopped (crashed or was killed) before this run finished, and no attempts were left.";

/**
 * Marks the run of a job the queue gave up on as failed when no attempt could record an outcome itself (each one's
 * worker died mid-run), so it does not show as running forever and can be retried. Returns whether one was open.
 */
export async function failAbandonedRun(ctx: MemoryContext, jobId: string): Promise<boolean> {
  const updated = await asUser(ctx, async (unit) => {
    const rows = await unit.db
      .update(extractionRuns)
      .set({ status: "failed", error: ABANDONED_RUN_ERROR, finishedAt: ctx.clock() })
      .where(openRunOfJob(ctx.principal.userId, jobId))
      .returning({ id: extractionRuns.id, threadId: extractionRuns.threadId });
    await recordWebhookEvents(
      unit,
      rows.map((run) => runCompletedEvent({ runId: run.id, threadId: run.threadId, status: "failed" }, ctx.clock())),
      ctx.scheduleWebhookDeliveries,
    );
    return rows;
  });
  return updated.length > 0;
}

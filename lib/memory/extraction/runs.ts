// The record of each run: opened (or taken over from an earlier attempt), failed, completed or abandoned, and read.
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { describeModelFailure, isModelFailure } from "@/lib/ai/failures";
import { cappedRows } from "@/lib/db/keyset";
import { extractionRuns, threads } from "@/lib/db/schema";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { type MemoryContext, serializeRunLife } from "@/lib/memory/core";
import { recordWebhookEvents, runCompletedEvent } from "@/lib/memory/webhooks";

export type ExtractionRun = typeof extractionRuns.$inferSelect;

/**
 * The newest `limit` runs of one of the caller's threads (`truncated` when it has more), or null when the caller has
 * no such thread.
 */
export async function threadExtractionRuns(ctx: MemoryContext, threadId: string, limit = 20) {
  const userId = ctx.principal.userId;
  return asUser(ctx, async ({ db: tx }) => {
    const [thread] = await tx
      .select({ extractedThrough: threads.extractedThrough })
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.id, threadId)));
    if (!thread) return null;
    const rows = await tx
      .select()
      .from(extractionRuns)
      .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.threadId, threadId)))
      .orderBy(desc(extractionRuns.createdAt))
      .limit(limit + 1);
    const { rows: runs, truncated } = cappedRows(rows, limit);
    return { extractedThrough: thread.extractedThrough, runs, truncated };
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
    ...serializeRunLife(run),
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

/** What opening a run records: the job, the messages it reads and the model that reads them. */
export interface RunOpening {
  threadId: string;
  jobId: string;
  from: number;
  through: number;
  modelId: string;
  root: readonly string[];
}

export async function openRun(ctx: MemoryContext, run: RunOpening): Promise<{ id: string; attempt: number }> {
  const userId = ctx.principal.userId;
  return asUser(ctx, async ({ db }) => {
    // An earlier attempt of this job that did not finish is taken over. One that committed keeps its record: the job
    // is only back because its worker died before reporting it done, and it now reads messages that arrived since.
    const [existing] = await db
      .select({ id: extractionRuns.id })
      .from(extractionRuns)
      .where(
        and(
          eq(extractionRuns.userId, userId),
          eq(extractionRuns.jobId, run.jobId),
          ne(extractionRuns.status, "succeeded"),
        ),
      )
      .orderBy(desc(extractionRuns.createdAt))
      .limit(1);
    const values = {
      status: "running" as const,
      fromPosition: run.from,
      throughPosition: run.through,
      model: run.modelId,
      startedAt: ctx.clock(),
      error: null,
    };
    if (existing) {
      const [updated] = await db
        .update(extractionRuns)
        .set({ ...values, attempts: sql`${extractionRuns.attempts} + 1` })
        .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, existing.id)))
        .returning({ attempts: extractionRuns.attempts });
      return { id: existing.id, attempt: updated!.attempts };
    }
    const [created] = await db
      .insert(extractionRuns)
      .values({ ...values, userId, threadId: run.threadId, namespace: [...run.root], jobId: run.jobId, attempts: 1 })
      .returning({ id: extractionRuns.id });
    return { id: created!.id, attempt: 1 };
  });
}

/**
 * An earlier attempt of this job that opened a run and did not finish it (superseded, or its worker died) finds
 * its messages extracted by another run meanwhile: that unfinished run changed nothing and is no record to keep.
 */
export async function dropOvertakenRun(ctx: MemoryContext, jobId: string) {
  await asUser(ctx, ({ db }) => db.delete(extractionRuns).where(openRunOfJob(ctx.principal.userId, jobId)));
}

/** The run's reason as its owner reads it: a provider fault in plain words, the app's own failures as they say. */
export function describeFailure(error: unknown): string {
  if (isModelFailure(error)) return describeModelFailure(error);
  return error instanceof Error ? error.message : String(error);
}

export async function recordFailure(ctx: MemoryContext, runId: string, error: unknown, final: boolean) {
  const message = describeFailure(error);
  await asUser(ctx, async (unit) => {
    const [run] = await unit.db
      .update(extractionRuns)
      .set({
        status: final ? "failed" : "queued",
        error: message.slice(0, 2_000),
        finishedAt: final ? ctx.clock() : null,
      })
      .where(and(eq(extractionRuns.userId, ctx.principal.userId), eq(extractionRuns.id, runId)))
      .returning({ threadId: extractionRuns.threadId });
    if (final && run) await recordRunCompleted(ctx, unit, { runId, threadId: run.threadId, status: "failed" });
  });
}

/** Records the run's completion event in the unit that finishes it. */
export async function recordRunCompleted(
  ctx: MemoryContext,
  unit: UnitOfWork,
  run: { runId: string; threadId: string; status: "succeeded" | "failed"; applied?: unknown[]; rejected?: unknown[] },
) {
  const counts = run.applied ? { applied: run.applied.length, rejected: run.rejected?.length ?? 0 } : {};
  const event = runCompletedEvent(
    { runId: run.runId, threadId: run.threadId, status: run.status, ...counts },
    ctx.clock(),
  );
  await recordWebhookEvents(unit, [event], ctx.scheduleWebhookDeliveries);
}

// The record of each consolidation run: queued, taken by an attempt, per group as it applies, finished; listed,
// read and reverted.

import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { afterPosition, decodeCursor, type KeysetOrder, keysetPage, orderBy } from "@/lib/db/keyset";
import { consolidationRuns } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import { AppError, parseInput } from "@/lib/errors";
import { LIMITS } from "@/lib/memory/contract";
import { type MemoryContext, serializeRunLife, withUnit } from "@/lib/memory/core";
import { type RevertOutcome, revertWrites, spansOf } from "@/lib/memory/store";

export type ConsolidationRun = typeof consolidationRuns.$inferSelect;
export type ConsolidationTrigger = ConsolidationRun["trigger"];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ORDER: KeysetOrder = { name: "consolidation_runs", direction: "desc" };
/** A run still marked running after this long lost its worker; another run of the user may start. */
export const ABANDONED_AFTER_MS = 15 * 60_000;

const where = (ctx: MemoryContext, id: string) =>
  and(eq(consolidationRuns.userId, ctx.principal.userId), eq(consolidationRuns.id, id));

export class ConsolidationRunNotFoundError extends AppError {
  constructor(id: string) {
    super("not_found", `No consolidation run with id ${id}.`);
    this.name = "ConsolidationRunNotFoundError";
  }
}

/** A run asked for by hand, recorded before its job is queued, so the caller gets it at once. */
export async function queueRun(ctx: MemoryContext, trigger: ConsolidationTrigger): Promise<ConsolidationRun> {
  const [row] = await asUser(ctx, ({ db }) =>
    db
      .insert(consolidationRuns)
      .values({ userId: ctx.principal.userId, trigger, status: "queued", createdAt: ctx.clock() })
      .returning(),
  );
  return row as ConsolidationRun;
}

/**
 * Takes the run for this attempt: the queued run it names, its own run again on a retry, or a new one. Null, with
 * why, when another run of the user is in progress (two never overlap) or the named run is no longer waiting.
 */
export async function claimRun(
  ctx: MemoryContext,
  job: { jobId: string; runId?: string; trigger: ConsolidationTrigger; modelId: string },
): Promise<{ run: ConsolidationRun } | { busy: string }> {
  const userId = ctx.principal.userId;
  return withUnit(ctx, async (tx) => {
    const unit = tx.unit!;
    await unit.serializeUserWrites();
    const { db } = unit;
    const now = ctx.clock();
    const [other] = await db
      .select({ id: consolidationRuns.id, jobId: consolidationRuns.jobId })
      .from(consolidationRuns)
      .where(
        and(
          eq(consolidationRuns.userId, userId),
          eq(consolidationRuns.status, "running"),
          gt(consolidationRuns.startedAt, new Date(now.getTime() - ABANDONED_AFTER_MS)),
        ),
      )
      .limit(1);
    if (other && other.jobId !== job.jobId) {
      const busy = `consolidation run ${other.id} is in progress`;
      // The run a person asked for says why it did not run, rather than wait as queued for ever.
      if (job.runId) {
        await db
          .update(consolidationRuns)
          .set({ status: "skipped", error: busy, finishedAt: now })
          .where(and(where(ctx, job.runId), eq(consolidationRuns.status, "queued")));
      }
      return { busy };
    }
    const taking = { status: "running" as const, jobId: job.jobId, model: job.modelId, startedAt: now };
    const take = (id: string) =>
      db
        .update(consolidationRuns)
        .set({ ...taking, attempts: sql`${consolidationRuns.attempts} + 1` })
        .where(and(where(ctx, id), inArray(consolidationRuns.status, ["queued", "running"])))
        .returning();
    // A retry takes its own run again; a job queued while another waited was dropped (one waiting job per user),
    // so the waiting one takes the oldest run waiting.
    const [waiting] =
      other || job.runId
        ? []
        : await db
            .select({ id: consolidationRuns.id })
            .from(consolidationRuns)
            .where(and(eq(consolidationRuns.userId, userId), eq(consolidationRuns.status, "queued")))
            .orderBy(consolidationRuns.createdAt)
            .limit(1);
    const runId = other?.id ?? job.runId ?? waiting?.id;
    const [named] = runId
      ? await take(runId)
      : await db
          .insert(consolidationRuns)
          .values({ userId, trigger: job.trigger, ...taking, attempts: 1, createdAt: now })
          .returning();
    if (!named) return { busy: `consolidation run ${runId} is no longer waiting` };
    return { run: named };
  });
}

/** Memories the user added since their last consolidation run began (all of them before a first run). */
export async function addedSinceLastRun(ctx: MemoryContext): Promise<number> {
  const userId = ctx.principal.userId;
  const [row] = await asUser(ctx, (unit) =>
    unit.rows<{ added: number }>(sql`
      select count(*)::int as added from memories m
      where m.user_id = ${userId} and m.status = 'active'
        and m.created_at > coalesce(
          (select max(r.created_at) from consolidation_runs r where r.user_id = ${userId}), '-infinity'::timestamptz)`),
  );
  return Number(row?.added ?? 0);
}

/** The run's end: its status, and why when it did not succeed. */
export async function finishRun(
  ctx: MemoryContext,
  runId: string,
  end: { status: "succeeded" | "failed" | "skipped"; error?: string | null; complete?: boolean },
): Promise<void> {
  await asUser(ctx, ({ db }) =>
    db
      .update(consolidationRuns)
      .set({ status: end.status, error: end.error ?? null, finishedAt: ctx.clock(), complete: end.complete ?? false })
      .where(where(ctx, runId)),
  );
}

/** A failed attempt the queue retries: the run stays running, saying why the attempt failed. */
export async function noteAttemptFailure(ctx: MemoryContext, runId: string, error: string): Promise<void> {
  await asUser(ctx, ({ db }) => db.update(consolidationRuns).set({ error }).where(where(ctx, runId)));
}

/** Adds a model call's tokens and cost to the run. */
export async function addCall(
  ctx: MemoryContext,
  runId: string,
  usage: { inputTokens?: number; outputTokens?: number },
  costUsd: number | null,
): Promise<void> {
  await asUser(ctx, ({ db }) =>
    db
      .update(consolidationRuns)
      .set({
        modelCalls: sql`${consolidationRuns.modelCalls} + 1`,
        inputTokens: sql`coalesce(${consolidationRuns.inputTokens}, 0) + ${usage.inputTokens ?? 0}`,
        outputTokens: sql`coalesce(${consolidationRuns.outputTokens}, 0) + ${usage.outputTokens ?? 0}`,
        ...(costUsd === null ? {} : { costUsd: sql`coalesce(${consolidationRuns.costUsd}, 0) + ${costUsd}` }),
      })
      .where(where(ctx, runId)),
  );
}

/** One group's outcome appended to the run, in the unit of work that applied the group. */
export async function recordGroup(
  ctx: MemoryContext,
  runId: string,
  entries: { group: unknown; proposed: unknown[]; applied: unknown[]; rejected: unknown[] },
): Promise<void> {
  const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
  await asUser(ctx, ({ db }) =>
    db
      .update(consolidationRuns)
      .set({
        groups: sql`${consolidationRuns.groups} || ${json([entries.group])}`,
        opsProposed: sql`${consolidationRuns.opsProposed} || ${json(entries.proposed)}`,
        opsApplied: sql`${consolidationRuns.opsApplied} || ${json(entries.applied)}`,
        opsRejected: sql`${consolidationRuns.opsRejected} || ${json(entries.rejected)}`,
      })
      .where(where(ctx, runId)),
  );
}

export async function getRun(ctx: MemoryContext, id: string): Promise<ConsolidationRun> {
  if (!UUID.test(id)) throw new ConsolidationRunNotFoundError(id);
  const [row] = await asUser(ctx, ({ db }) => db.select().from(consolidationRuns).where(where(ctx, id)));
  if (!row) throw new ConsolidationRunNotFoundError(id);
  return row;
}

export const listRunsInputSchema = z.strictObject({
  limit: z.number().int().min(1).max(LIMITS.listPage).default(20),
  cursor: z.string().max(LIMITS.cursorChars).optional(),
  onInvalidCursor: z.enum(["reject", "restart"]).default("reject"),
});

/** The caller's runs, newest first, keyset-paged. */
export async function listRuns(ctx: MemoryContext, raw: z.input<typeof listRunsInputSchema> = {}) {
  const input = parseInput(listRunsInputSchema, raw);
  const position = decodeCursor(input.cursor, ORDER, { onInvalid: input.onInvalidCursor, idSchema: z.uuid() });
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select()
      .from(consolidationRuns)
      .where(
        and(
          eq(consolidationRuns.userId, ctx.principal.userId),
          afterPosition(consolidationRuns.createdAt, consolidationRuns.id, ORDER, position),
        ),
      )
      .orderBy(...orderBy(consolidationRuns.createdAt, consolidationRuns.id, ORDER))
      .limit(input.limit + 1),
  );
  const { page, nextCursor } = keysetPage(rows, input.limit, ORDER, (row) => ({ at: row.createdAt, id: row.id }));
  return { runs: page, nextCursor };
}

export function serializeConsolidationRun(run: ConsolidationRun) {
  return {
    id: run.id,
    trigger: run.trigger,
    status: run.status,
    model: run.model,
    groups: run.groups,
    complete: run.complete,
    opsProposed: run.opsProposed,
    opsApplied: run.opsApplied,
    opsRejected: run.opsRejected,
    modelCalls: run.modelCalls,
    tokens: { input: run.inputTokens, output: run.outputTokens },
    costUsd: run.costUsd,
    ...serializeRunLife(run),
  };
}

export class ConsolidationRunNotRevertibleError extends AppError {
  constructor(message: string) {
    super("conflict", message);
    this.name = "ConsolidationRunNotRevertibleError";
  }
}

const written = z.looseObject({
  writes: z.array(z.looseObject({ memoryId: z.string().min(1), version: z.number().int().positive() })),
});

/**
 * Undoes what one of the caller's consolidation runs applied, like an extraction run's revert (revertWrites): each
 * memory back to the version it had, one changed since skipped and named. A run reverts once.
 */
export async function revertConsolidationRun(ctx: MemoryContext, id: string): Promise<RevertOutcome> {
  if (!UUID.test(id)) throw new ConsolidationRunNotFoundError(id);
  return withUnit(ctx, async (writer) => {
    const { db } = writer.unit!;
    const [run] = await db.select().from(consolidationRuns).where(where(ctx, id)).for("update");
    if (!run) throw new ConsolidationRunNotFoundError(id);
    if (run.revertedAt) {
      throw new ConsolidationRunNotRevertibleError(`This run was already reverted (${run.revertedAt.toISOString()}).`);
    }
    if (run.status === "queued" || run.status === "running") {
      throw new ConsolidationRunNotRevertibleError(`This run is ${run.status}; revert it once it has finished.`);
    }
    const writes = run.opsApplied.flatMap((raw) => {
      const entry = written.safeParse(raw);
      return entry.success ? entry.data.writes : [];
    });
    const outcome = await revertWrites(writer, spansOf(writes), "the run", `reverted consolidation run ${run.id}`);
    await db.update(consolidationRuns).set({ revertedAt: ctx.clock() }).where(where(ctx, id));
    return outcome;
  });
}

import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { extractionRuns } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { type MemoryContext, withUnit } from "@/lib/memory/core";
import { type RevertOutcome, revertWrites, spansOf } from "@/lib/memory/store";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The run record is JSON the extractor wrote (AppliedOp); read it leniently so an odd entry is skipped, not fatal.
const written = { memoryId: z.string().min(1), version: z.number().int().positive() };
const appliedEntry = z.looseObject({
  op: z.enum(["insert", "update", "delete"]),
  ...written,
  supersededBy: z.looseObject(written).optional(),
});
/** The run's writes (memory, version) in the order it made them; a superseding update also inserted a memory. */
function writesOf(opsApplied: readonly unknown[]): Array<{ memoryId: string; version: number }> {
  return opsApplied.flatMap((raw) => {
    const entry = appliedEntry.safeParse(raw);
    if (!entry.success) return [];
    const { memoryId, version, supersededBy } = entry.data;
    return [{ memoryId, version }, ...(supersededBy ? [supersededBy] : [])];
  });
}

export class RunNotRevertibleError extends AppError {
  constructor(message: string) {
    super("conflict", message);
    this.name = "RunNotRevertibleError";
  }
}

/**
 * Undoes what one of the caller's extraction runs applied, in one unit of work (revertWrites: each memory back as it
 * was before the run, one changed since skipped and named), with a reason naming the run. A run reverts once: again,
 * or a run that did not succeed, is a conflict.
 */
export async function revertRun(ctx: MemoryContext, runId: string): Promise<RevertOutcome> {
  const notFound = new AppError("not_found", `No extraction run with id ${runId}.`);
  if (!UUID.test(runId)) throw notFound;
  return withUnit(ctx, async (writer) => {
    const { db } = writer.unit!;
    const where = and(eq(extractionRuns.userId, ctx.principal.userId), eq(extractionRuns.id, runId));
    const [run] = await db.select().from(extractionRuns).where(where).for("update");
    if (!run) throw notFound;
    if (run.revertedAt) {
      throw new RunNotRevertibleError(`This run was already reverted (${run.revertedAt.toISOString()}).`);
    }
    if (run.status !== "succeeded") {
      throw new RunNotRevertibleError(`Only a succeeded run can be reverted; this one is ${run.status}.`);
    }
    const outcome = await revertWrites(
      writer,
      spansOf(writesOf(run.opsApplied)),
      "the run",
      `reverted extraction run ${run.id}`,
    );
    await db.update(extractionRuns).set({ revertedAt: ctx.clock() }).where(where);
    return outcome;
  });
}

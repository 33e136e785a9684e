import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { extractionRuns } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { type MemoryContext, MemoryNotFoundError, withUnit } from "@/lib/memory/core";
import { deleteMemory, getMemory, memoryHistory, restoreMemory, updateMemory } from "@/lib/memory/store";

export interface RevertOutcome {
  /** Memories put back as they were before the run, each with a new version. */
  reverted: string[];
  /** Memories left as they are, with why: changed since the run, purged, or nothing to go back to. */
  skipped: Array<{ memoryId: string; reason: string }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The run record is JSON the extractor wrote (AppliedOp); read it leniently so an odd entry is skipped, not fatal.
const written = { memoryId: z.string().min(1), version: z.number().int().positive() };
const appliedEntry = z.looseObject({
  op: z.enum(["insert", "update", "delete"]),
  ...written,
  supersededBy: z.looseObject(written).optional(),
});
type AppliedEntry = Pick<z.infer<typeof appliedEntry>, "op" | "memoryId" | "version">;

/** The run's writes in the order it made them; a superseding update also inserted the memory with the new value. */
function writesOf(opsApplied: readonly unknown[]): AppliedEntry[] {
  return opsApplied.flatMap((raw) => {
    const entry = appliedEntry.safeParse(raw);
    if (!entry.success) return [];
    const { op, memoryId, version, supersededBy } = entry.data;
    return [{ op, memoryId, version }, ...(supersededBy ? [{ op: "insert" as const, ...supersededBy }] : [])];
  });
}

export class RunNotRevertibleError extends AppError {
  constructor(message: string) {
    super("conflict", message);
    this.name = "RunNotRevertibleError";
  }
}

/**
 * Undoes what one of the caller's extraction runs applied, newest op first, in one unit of work: an insert is
 * deleted (a tombstone, so the manager does not learn the fact again), an update goes back to the content and
 * validity of the version before it, a delete is restored. Each is a new version by the caller with a reason naming
 * the run. A memory whose version is no longer the one the run left was changed since, and that change stands: it is
 * skipped and named. A run reverts once: again, or a run that did not succeed, is a conflict.
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
    const reason = `reverted extraction run ${run.id}`;
    const outcome: RevertOutcome = { reverted: [], skipped: [] };
    for (const entry of writesOf(run.opsApplied).reverse()) {
      const skipped = await revertOp(writer, entry, reason);
      if (skipped) outcome.skipped.push({ memoryId: entry.memoryId, reason: skipped });
      else outcome.reverted.push(entry.memoryId);
    }
    await db.update(extractionRuns).set({ revertedAt: ctx.clock() }).where(where);
    return outcome;
  });
}

/** Reverses one applied op; returns why it was left alone, or null once reversed. */
async function revertOp(ctx: MemoryContext, op: AppliedEntry, reason: string): Promise<string | null> {
  let current: Awaited<ReturnType<typeof getMemory>>;
  try {
    current = await getMemory(ctx, op.memoryId);
  } catch (error) {
    if (error instanceof MemoryNotFoundError) return "the memory no longer exists";
    throw error;
  }
  if (current.purgedAt) return "the memory was purged since the run";
  if (current.version !== op.version) {
    return `changed since the run (the run left version ${op.version}, it is now at version ${current.version})`;
  }
  const change = { expectedVersion: op.version, reason };
  // An insert past version 1 rewrote a one-per-namespace document (the profile): it goes back like an update.
  if (op.op === "insert" && op.version === 1) await deleteMemory(ctx, op.memoryId, change);
  else if (op.op === "delete") await restoreMemory(ctx, op.memoryId, change);
  else {
    const before = (await memoryHistory(ctx, op.memoryId)).find((version) => version.version === op.version - 1);
    if (!before || before.content === null) return "no earlier version to go back to";
    await updateMemory(ctx, op.memoryId, {
      ...change,
      content: before.content,
      kind: before.kind,
      validFrom: before.validFrom,
      validTo: before.validTo,
    });
  }
  return null;
}

import { type MemoryContext, MemoryNotFoundError } from "@/lib/memory/core";
import { deleteMemory, restoreMemory, updateMemory } from "./change";
import { setMergeState } from "./merge";
import { getMemory, memoryHistory } from "./read";

/** What a writer (an extraction run, a chat turn) did to one memory: the first and the last version it wrote. */
export interface WrittenSpan {
  memoryId: string;
  firstVersion: number;
  lastVersion: number;
}

export interface RevertOutcome {
  /** Memories put back as they were before the writer, each with a new version. */
  reverted: string[];
  /** Memories left as they are, with why: changed since, purged, or nothing to go back to. */
  skipped: Array<{ memoryId: string; reason: string }>;
}

/**
 * Puts each memory back as it was before `by` (e.g. "the run") first wrote it, in the caller's unit of work, as a new
 * version by the caller with `reason`: one the writer created is deleted (a tombstone, so no model learns the fact
 * again), one it changed goes back to the content, kind, validity and source before, one it deleted is restored. A
 * memory no longer at the version the writer left was changed since, and that change stands: it is skipped and named.
 */
export async function revertWrites(
  ctx: MemoryContext,
  spans: readonly WrittenSpan[],
  by: string,
  reason: string,
): Promise<RevertOutcome> {
  const outcome: RevertOutcome = { reverted: [], skipped: [] };
  for (const span of spans) {
    const skipped = await revertSpan(ctx, span, by, reason);
    if (skipped) outcome.skipped.push({ memoryId: span.memoryId, reason: skipped });
    else outcome.reverted.push(span.memoryId);
  }
  return outcome;
}

/** Reverses one memory's span; returns why it was left alone, or null once reversed. */
async function revertSpan(ctx: MemoryContext, span: WrittenSpan, by: string, reason: string): Promise<string | null> {
  let current: Awaited<ReturnType<typeof getMemory>>;
  try {
    current = await getMemory(ctx, span.memoryId);
  } catch (error) {
    if (error instanceof MemoryNotFoundError) return "the memory no longer exists";
    throw error;
  }
  if (current.purgedAt) return `the memory was purged since ${by}`;
  if (current.version !== span.lastVersion) {
    const who = current.actor.type === "user" ? ", last changed by you" : "";
    return `changed since ${by} (${by} left version ${span.lastVersion}, it is now at version ${current.version}${who})`;
  }
  const change = { expectedVersion: span.lastVersion, reason };
  if (span.firstVersion === 1) {
    if (current.status === "active") await deleteMemory(ctx, span.memoryId, change);
    return null;
  }
  const before = (await memoryHistory(ctx, span.memoryId)).find((version) => version.version === span.firstVersion - 1);
  if (!before || before.content === null) return "no earlier version to go back to";
  if (before.status === "deleted") {
    if (current.status === "active") await deleteMemory(ctx, span.memoryId, change);
    return null;
  }
  let version = span.lastVersion;
  if (current.status === "deleted") {
    version = (await restoreMemory(ctx, span.memoryId, change)).version;
    if (before.contentHash === current.contentHash && sameValidity(before, current)) return null;
  }
  // A consolidation run folded it into another, or folded others into it: back to the merge state it had.
  if (!sameMergeState(before, current)) {
    const state = { status: before.status, mergedInto: before.mergedInto, mergedFrom: before.mergedFrom };
    version = (await setMergeState(ctx, span.memoryId, state, { expectedVersion: version, reason })).version;
    if (before.contentHash === current.contentHash && sameValidity(before, current)) return null;
  }
  // The content goes back with the words it came from (a merge's wording kept the row's source; an update brought its
  // own): the version records who reverted it.
  const { type, threadId, messageId, quote, runId } = before.source;
  await updateMemory(ctx, span.memoryId, {
    expectedVersion: version,
    reason,
    content: before.content,
    kind: before.kind,
    validFrom: before.validFrom,
    validTo: before.validTo,
    provenance: { source: type, threadId, messageId, quote, runId },
  });
  return null;
}

const sameMergeState = (
  a: { status: string; mergedInto: string | null; mergedFrom: string[] },
  b: { status: string; mergedInto: string | null; mergedFrom: string[] },
) => a.status === b.status && a.mergedInto === b.mergedInto && a.mergedFrom.join() === b.mergedFrom.join();

const sameValidity = (a: { validFrom: Date | null; validTo: Date | null }, b: typeof a) =>
  a.validFrom?.getTime() === b.validFrom?.getTime() && a.validTo?.getTime() === b.validTo?.getTime();

/** Writes (memory, version) gathered into one span per memory, in the order each memory was first written. */
export function spansOf(writes: ReadonlyArray<{ memoryId: string; version: number }>): WrittenSpan[] {
  const spans = new Map<string, WrittenSpan>();
  for (const { memoryId, version } of writes) {
    const span = spans.get(memoryId);
    if (!span) spans.set(memoryId, { memoryId, firstVersion: version, lastVersion: version });
    else {
      span.firstVersion = Math.min(span.firstVersion, version);
      span.lastVersion = Math.max(span.lastVersion, version);
    }
  }
  return [...spans.values()];
}

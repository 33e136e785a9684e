// Folding memories that say the same into one (docs/memory-model.md, "Consolidation"): nothing is erased. Each memory
// folded in keeps its row, history and source quote with status `merged` and the memory it went into; that memory
// lists them in `mergedFrom`, and counts them in its `support`. Where each adds a detail the other lacks, the merger
// gives the memory that stands a wording holding them all, written first as a version of its own (rules, a new
// vector; the row keeps its source), so the merge loses no detail and a revert puts the old wording back.

import { and, eq, type SQL } from "drizzle-orm";
import { memories } from "@/lib/db/schema";
import type { UnitOfWork } from "@/lib/db/unit-of-work";
import { LIMITS } from "@/lib/memory/contract";
import {
  MemoryConflictError,
  type MemoryContext,
  MemoryNotFoundError,
  type Provenance,
  withUnit,
} from "@/lib/memory/core";
import { rewordLocked } from "./change";
import { ownedUnder } from "./filters";
import { type MemoryRow, toMemory, UUID } from "./rows";
import type { Memory } from "./types";
import { appendVersion, lockRow, writerColumns } from "./versioned-writes";

export interface MergeInput {
  /** The memory that stands, at the version the merger saw. */
  into: { id: string; version: number };
  /** The memories folded into it, each at the version the merger saw. */
  from: ReadonlyArray<{ id: string; version: number }>;
  reason: string;
  provenance?: Provenance;
  /** The content the memory that stands takes before the others are folded in: a wording holding every detail. */
  content?: unknown;
}

export interface MergeOutcome {
  into: Memory;
  merged: Memory[];
  /** The memory that stands at the version its new wording was written at, when the merge gave it one. */
  reworded?: Memory;
}

/**
 * Merges in one unit of work (the caller's, when it has one) under the user's writer lock. Every memory must be active, of one namespace and kind, and
 * at the version given: otherwise a conflict, and nothing is written.
 */
export function mergeMemories(ctx: MemoryContext, input: MergeInput): Promise<MergeOutcome> {
  return withUnit(ctx, (tx) => mergeInUnit(tx, tx.unit!, input));
}

async function mergeInUnit(ctx: MemoryContext, unit: UnitOfWork, input: MergeInput): Promise<MergeOutcome> {
  await unit.serializeUserWrites();
  let into = await lockAt(ctx, unit, input.into);
  const sources = [];
  for (const entry of input.from) {
    if (entry.id === into.id) throw new MemoryConflictError("A memory cannot be merged into itself.", into.version);
    const row = await lockAt(ctx, unit, entry);
    if (row.kind !== into.kind || row.namespace.join("\u0000") !== into.namespace.join("\u0000")) {
      throw new MemoryConflictError(
        `Memory ${row.id} is a ${row.kind} in another namespace or of another kind than memory ${into.id}.`,
        row.version,
      );
    }
    sources.push(row);
  }
  // Every memory is checked before anything is written: a conflict leaves the wording as it was too.
  const reworded =
    input.content === undefined
      ? undefined
      : await rewordLocked(ctx, unit, into, {
          content: input.content,
          reason: `worded to hold what ${sources.map((row) => row.id).join(", ")} add: ${input.reason}`.slice(
            0,
            LIMITS.reasonChars,
          ),
          provenance: input.provenance,
        });
  if (reworded) into = reworded;
  const merged: MemoryRow[] = [];
  for (const row of sources) {
    merged.push(
      await writeMergeState(
        ctx,
        unit,
        row,
        { status: "merged", mergedInto: into.id, mergedFrom: row.mergedFrom },
        {
          reason: `merged into memory ${into.id}: ${input.reason}`,
          provenance: input.provenance,
        },
      ),
    );
  }
  const absorbed = [...into.mergedFrom, ...sources.flatMap((row) => [row.id, ...row.mergedFrom])];
  const standing = await writeMergeState(
    ctx,
    unit,
    into,
    { status: "active", mergedInto: null, mergedFrom: [...new Set(absorbed)] },
    {
      reason: `merged ${sources.map((row) => row.id).join(", ")} into this memory: ${input.reason}`,
      provenance: input.provenance,
    },
  );
  return {
    into: toMemory(ctx, standing),
    merged: merged.map((row) => toMemory(ctx, row)),
    reworded: reworded && toMemory(ctx, reworded),
  };
}

export interface MergeState {
  status: "active" | "merged";
  mergedInto: string | null;
  mergedFrom: string[];
}

/**
 * Puts a memory's merge state back as an earlier version had it (a reverted consolidation run): a memory folded in is
 * active again, the one it went into lists what it listed before. At `expectedVersion`, else a conflict.
 */
export function setMergeState(
  ctx: MemoryContext,
  id: string,
  state: MergeState,
  options: { expectedVersion: number; reason: string },
): Promise<Memory> {
  return withUnit(ctx, async (tx) => {
    const unit = tx.unit!;
    await unit.serializeUserWrites();
    const row = await lockAt(tx, unit, { id, version: options.expectedVersion }, ["active", "merged"]);
    return toMemory(tx, await writeMergeState(tx, unit, row, state, { reason: options.reason }));
  });
}

async function writeMergeState(
  ctx: MemoryContext,
  unit: UnitOfWork,
  current: MemoryRow,
  state: MergeState,
  why: { reason: string; provenance?: Provenance },
): Promise<MemoryRow> {
  const [updated] = await unit.db
    .update(memories)
    .set({
      status: state.status,
      mergedInto: state.mergedInto,
      mergedFrom: state.mergedFrom,
      version: current.version + 1,
      updatedAt: ctx.clock(),
    })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  // The row keeps its own source (the words it came from); the version records who merged it and why.
  await appendVersion(ctx, unit, updated as MemoryRow, "update", why.reason, writerColumns(ctx, why.provenance));
  return updated as MemoryRow;
}

async function lockAt(
  ctx: MemoryContext,
  unit: UnitOfWork,
  at: { id: string; version: number },
  statuses: readonly string[] = ["active"],
): Promise<MemoryRow> {
  if (!UUID.test(at.id)) throw new MemoryNotFoundError(at.id);
  const row = await lockRow(unit.db, and(ownedUnder(ctx), eq(memories.id, at.id)) as SQL);
  if (!row) throw new MemoryNotFoundError(at.id);
  if (row.version !== at.version) {
    throw new MemoryConflictError(
      `Expected memory ${at.id} at version ${at.version}, but it is at version ${row.version}.`,
      row.version,
    );
  }
  if (!statuses.includes(row.status)) {
    throw new MemoryConflictError(`Memory ${at.id} is ${row.status}.`, row.version);
  }
  return row;
}

import { and, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { memories, memoryEmbeddings, memoryVersions } from "@/lib/db/schema";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { parseInput } from "@/lib/errors";
import {
  expectedVersionInput,
  namespaceInput,
  provenanceInput,
  reasonInput,
  updateMemoryFields,
} from "@/lib/memory/contract";
import {
  MemoryConflictError,
  type MemoryContext,
  MemoryNotFoundError,
  type Provenance,
  prepareContent,
} from "@/lib/memory/core";
import { ownedUnder } from "./filters";
import { eraseCopies } from "./purge-copies";
import { admitActivated } from "./quota";
import { checkValidity, kindsOf, type MemoryRow, toMemory, UUID } from "./rows";
import { enforceRules } from "./rules";
import type { Memory } from "./types";
import {
  appendVersion,
  applyContentChange,
  applyStatusChange,
  embedOnCommit,
  lockRow,
  revive,
  writerColumns,
} from "./versioned-writes";

const writeOptions = {
  reason: reasonInput.optional(),
  provenance: provenanceInput.optional(),
  /** Restricts the write to memories under this relative namespace (e.g. the tool's namespace). */
  within: namespaceInput.optional(),
  expectedVersion: expectedVersionInput.optional(),
};

export const updateMemoryInputSchema = updateMemoryFields
  .extend(writeOptions)
  .refine(
    (input) =>
      input.content !== undefined ||
      input.kind !== undefined ||
      input.metadata !== undefined ||
      input.pinned !== undefined ||
      input.validFrom !== undefined ||
      input.validTo !== undefined,
    "an update changes content, kind, metadata, pinned, validFrom or validTo",
  );
export type UpdateMemoryInput = z.input<typeof updateMemoryInputSchema>;

export const writeOptionsSchema = z.strictObject(writeOptions);
export type WriteOptions = z.input<typeof writeOptionsSchema>;

/** Changes content, kind and/or metadata. A stale `expectedVersion` raises MemoryConflictError. */
export function updateMemory(ctx: MemoryContext, id: string, raw: UpdateMemoryInput): Promise<Memory> {
  return changeMemory(ctx, id, raw, { reviveDeleted: false });
}

/**
 * A store's "put" on an existing key: like updateMemory, but a deleted or purged memory comes back with the new
 * content in the same transaction (the restore and the update both appear in its history).
 */
export function replaceMemory(ctx: MemoryContext, id: string, raw: UpdateMemoryInput): Promise<Memory> {
  return changeMemory(ctx, id, raw, { reviveDeleted: true });
}

async function changeMemory(
  ctx: MemoryContext,
  id: string,
  raw: UpdateMemoryInput,
  options: { reviveDeleted: boolean },
): Promise<Memory> {
  const input = parseInput(updateMemoryInputSchema, raw);
  return writeLocked(ctx, id, input, async (_tx, found, unit) => {
    if (found.status === "deleted" && !options.reviveDeleted) {
      throw new MemoryConflictError("The memory is deleted; restore it before updating.", found.version);
    }
    const kind = input.kind ?? found.kind;
    const changesContent = input.content !== undefined || kind !== found.kind;
    const pinned = input.pinned ?? found.pinned;
    const validFrom = input.validFrom === undefined ? found.validFrom : input.validFrom;
    const validTo = input.validTo === undefined ? found.validTo : input.validTo;
    checkValidity(validFrom, validTo);
    const changesFlags =
      pinned !== found.pinned || !sameInstant(validFrom, found.validFrom) || !sameInstant(validTo, found.validTo);
    // Pinning what is pinned (or re-sending the same dates) is no change and leaves no version behind.
    if (!changesContent && input.metadata === undefined && !changesFlags && found.status === "active") return found;
    if (found.status === "deleted") await admitActivated(ctx, unit, 1);
    const current = found.status === "deleted" ? await revive(ctx, unit, found) : found;
    const onlyPin = !changesContent && input.metadata === undefined && pinned !== found.pinned;
    const content = changesContent ? prepareContent(kindsOf(ctx), kind, input.content ?? current.content) : undefined;
    if (content) await enforceRules(ctx, unit, [content.text]);
    const updated = await applyContentChange(ctx, unit, current, {
      kind,
      content,
      metadata: input.metadata ?? current.metadata,
      pinned,
      validFrom,
      validTo,
      reason: input.reason ?? (onlyPin ? (pinned ? "pinned" : "unpinned") : undefined),
      provenance: input.provenance,
    });
    if (changesContent) embedOnCommit(ctx, unit, [updated]);
    return updated;
  });
}

/**
 * A merge's wording (lib/memory/store/merge.ts) on a row the caller holds locked: the content changes as an update's
 * does (the rules, a version, a new vector) while the row keeps its source; undefined when its text is the memory's
 * own, which writes nothing.
 */
export async function rewordLocked(
  ctx: MemoryContext,
  unit: UnitOfWork,
  current: MemoryRow,
  change: { content: unknown; reason: string; provenance?: Provenance },
): Promise<MemoryRow | undefined> {
  const content = prepareContent(kindsOf(ctx), current.kind, change.content);
  if (content.text === current.text) return undefined;
  await enforceRules(ctx, unit, [content.text]);
  const updated = await applyContentChange(ctx, unit, current, {
    kind: current.kind,
    content,
    metadata: current.metadata,
    pinned: current.pinned,
    validFrom: current.validFrom,
    validTo: current.validTo,
    reason: change.reason,
    provenance: change.provenance,
    keepSource: true,
  });
  embedOnCommit(ctx, unit, [updated]);
  return updated;
}

/** Soft delete: the row stays as a tombstone (status `deleted`) so the fact can be recognised and suppressed. */
export async function deleteMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  return writeLocked(ctx, id, options, (_tx, current, unit) =>
    current.status === "deleted" ? current : applyStatusChange(ctx, unit, current, "delete", options),
  );
}

export async function restoreMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  return writeLocked(ctx, id, options, async (_tx, current, unit) => {
    if (current.purgedAt) throw new MemoryConflictError("A purged memory cannot be restored.", current.version);
    if (current.status === "active") return current;
    await admitActivated(ctx, unit, 1);
    return applyStatusChange(ctx, unit, current, "restore", options);
  });
}

/**
 * Erases a memory's content everywhere: the memory row, every version row and every embedding. What remains is ids,
 * key, kind, timestamps, ops, actors and the content hash (so a restatement of the fact can still be suppressed).
 * The caller's reason is not stored, since it tends to restate the fact being erased.
 */
export async function purgeMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  return writeLocked(ctx, id, options, async (tx, current, unit) => {
    if (current.purgedAt) return current;
    const now = ctx.clock();
    const earlier = await tx
      .select({ text: memoryVersions.text, content: memoryVersions.content })
      .from(memoryVersions)
      .where(and(eq(memoryVersions.userId, current.userId), eq(memoryVersions.memoryId, current.id)));
    const texts = [current.text, ...earlier.map((version) => version.text)].filter((text): text is string => !!text);
    const contents = [current.content, ...earlier.map((version) => version.content)].filter((value) => value != null);
    await eraseCopies(tx, current.userId, { memoryId: current.id, texts, contents, kinds: kindsOf(ctx) }, now);
    const erased = { content: null, text: null, metadata: {}, quote: null };
    const [updated] = await tx
      .update(memories)
      .set({ ...erased, status: "deleted", purgedAt: now, version: current.version + 1, updatedAt: now })
      .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
      .returning();
    await tx
      .update(memoryVersions)
      .set({ ...erased, reason: null })
      .where(and(eq(memoryVersions.userId, current.userId), eq(memoryVersions.memoryId, current.id)));
    if (ctx.database.vector) {
      await tx
        .delete(memoryEmbeddings)
        .where(and(eq(memoryEmbeddings.userId, current.userId), eq(memoryEmbeddings.memoryId, current.id)));
    }
    const purged = updated as MemoryRow;
    await appendVersion(ctx, unit, purged, "purge", undefined, {
      ...writerColumns(ctx, options.provenance),
      quote: null,
    });
    return purged;
  });
}

const sameInstant = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * Locks the caller's row (SELECT … FOR UPDATE) for the whole transaction, checks `expectedVersion`, then lets
 * `change` write. Concurrent writers queue on the lock, so none can overwrite another's version unseen.
 */
async function writeLocked(
  ctx: MemoryContext,
  id: string,
  options: { within?: string[]; expectedVersion?: number },
  change: (tx: Db, current: MemoryRow, unit: UnitOfWork) => Promise<MemoryRow> | MemoryRow,
): Promise<Memory> {
  if (!UUID.test(id)) throw new MemoryNotFoundError(id);
  return asUser(ctx, async (unit) => {
    const tx = unit.db;
    await unit.serializeUserWrites();
    const current = await lockRow(tx, and(ownedUnder(ctx, options.within), eq(memories.id, id)) as SQL);
    if (!current) throw new MemoryNotFoundError(id);
    if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
      throw new MemoryConflictError(
        `Expected version ${options.expectedVersion}, but the memory is at version ${current.version}.`,
        current.version,
      );
    }
    return toMemory(ctx, await change(tx, current, unit));
  });
}

import { asUser } from "@/lib/db/unit-of-work";
import type { CreateMemoryInput } from "@/lib/memory/contract";
import {
  absoluteNamespace,
  defaultKinds,
  MemoryConflictError,
  type MemoryContext,
  prepareContent,
  withUnit,
} from "@/lib/memory/core";
import {
  createMemoryOnce,
  deleteMemory,
  enforceRules,
  existingFact,
  getMemory,
  type Memory,
  updateMemory,
} from "@/lib/memory/store";
import { type Proposal, propose } from "./proposals";
import { getSettings, type ReviewMode } from "./settings";

/**
 * Review routing (docs/memory-model.md), in the core so every model-driven path obeys it: the chat's tools and the
 * manager write through these, each with one ReviewTurn per chat turn or extraction run. Writes by people and by apps
 * with a key are theirs to make and apply directly; rules still bind apps (lib/memory/store/rules.ts, enforced by the
 * store).
 */
export interface ReviewTurn {
  /** Model-initiated deletes asked for so far in this turn or run. */
  deletes: number;
  mode?: Promise<ReviewMode>;
}

export const newReviewTurn = (): ReviewTurn => ({ deletes: 0 });

export type Held = { proposal: Proposal; why: string };

/** Why this write of the context's writer waits for the user's approval, or null when it applies now. */
export async function reviewReason(
  ctx: MemoryContext,
  turn: ReviewTurn,
  op: "insert" | "update" | "delete",
): Promise<string | null> {
  if (ctx.actor.type !== "agent" && ctx.actor.type !== "extractor") return null;
  turn.mode ??= getSettings(ctx).then((settings) => settings.review);
  const mode = await turn.mode;
  if (mode === "off") return null;
  if (mode === "all" && ctx.actor.type === "extractor") return "review mode all: every background change waits";
  if (op !== "delete") return null;
  turn.deletes += 1;
  return turn.deletes > 1 ? "review mode deletes: a delete beyond the first in one turn waits" : null;
}

/** Creates the memory, or proposes it; a fact the user already has is neither. */
export async function gatedCreate(
  ctx: MemoryContext,
  turn: ReviewTurn,
  raw: CreateMemoryInput & { reason: string },
): Promise<{ memory: Memory; created: boolean } | Held> {
  const why = await reviewReason(ctx, turn, "insert");
  if (!why) return createMemoryOnce(ctx, raw);
  return withUnit(ctx, async (tx) => {
    const existing = await existingFact(tx, raw);
    if (existing) return { memory: existing, created: false };
    const kind = raw.kind ?? "memory";
    const prepared = prepareContent(tx.kinds ?? defaultKinds, kind, raw.content);
    await asUser(tx, (unit) => enforceRules(tx, unit, [prepared.text]));
    const proposal = await propose(tx, {
      op: "insert",
      namespace: absoluteNamespace(ctx.principal.root, raw.namespace ?? []),
      kind,
      content: prepared.content,
      text: prepared.text,
      contentHash: prepared.contentHash,
      reason: raw.reason,
      provenance: raw.provenance,
    });
    return { proposal, why };
  });
}

interface ChangeOptions {
  within?: string[];
  expectedVersion?: number;
  reason?: string;
  provenance?: { messageId?: string; quote?: string };
}

/** Updates the memory, or proposes the update against the version it is at (or `expectedVersion`). */
export async function gatedUpdate(
  ctx: MemoryContext,
  turn: ReviewTurn,
  id: string,
  content: unknown,
  options: ChangeOptions,
): Promise<{ memory: Memory } | Held> {
  const why = await reviewReason(ctx, turn, "update");
  if (!why) return { memory: await updateMemory(ctx, id, { ...options, content }) };
  return withUnit(ctx, async (tx) => {
    const current = await currentAt(tx, id, options);
    if (current.status === "deleted") {
      throw new MemoryConflictError("The memory is deleted; restore it before updating.", current.version);
    }
    const prepared = prepareContent(tx.kinds ?? defaultKinds, current.kind, content);
    await asUser(tx, (unit) => enforceRules(tx, unit, [prepared.text]));
    const proposal = await propose(tx, {
      op: "update",
      memoryId: current.id,
      expectedVersion: current.version,
      namespace: absoluteNamespace(ctx.principal.root, current.namespace),
      kind: current.kind,
      content: prepared.content,
      text: prepared.text,
      contentHash: prepared.contentHash,
      reason: options.reason ?? "the model asked to change it",
      provenance: options.provenance,
    });
    return { proposal, why };
  });
}

/** Deletes the memory (a tombstone), or proposes the delete; an already deleted memory is returned as it is. */
export async function gatedDelete(
  ctx: MemoryContext,
  turn: ReviewTurn,
  id: string,
  options: ChangeOptions,
): Promise<{ memory: Memory } | (Held & { memory: Memory })> {
  const current = await currentAt(ctx, id, options);
  if (current.status === "deleted") return { memory: current };
  const why = await reviewReason(ctx, turn, "delete");
  if (!why) return { memory: await deleteMemory(ctx, id, options) };
  const proposal = await propose(ctx, {
    op: "delete",
    memoryId: current.id,
    expectedVersion: current.version,
    namespace: absoluteNamespace(ctx.principal.root, current.namespace),
    kind: current.kind,
    text: current.text,
    contentHash: current.contentHash,
    reason: options.reason ?? "the model asked to delete it",
    provenance: options.provenance,
  });
  return { proposal, why, memory: current };
}

/** The memory as it stands, which must be at `expectedVersion` when one is given (else a conflict, as in the store). */
async function currentAt(ctx: MemoryContext, id: string, options: ChangeOptions): Promise<Memory> {
  const current = await getMemory(ctx, id, { within: options.within });
  if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
    throw new MemoryConflictError(
      `Expected version ${options.expectedVersion}, but the memory is at version ${current.version}.`,
      current.version,
    );
  }
  return current;
}

export const isHeld = (outcome: object): outcome is Held => "proposal" in outcome;

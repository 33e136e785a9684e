// The gate for a consolidation run's ops (docs/memory-model.md, "Consolidation"): the same review mode as every
// model write, a person's own edit changed only through a proposal, and no change proposed twice. The ops write no
// new words (a merge keeps the standing memory's text, supersede and expire only close a fact), so the rules and the
// deleted facts the other gate screens text against have nothing here to match.

import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { memoryProposals } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import { absoluteNamespace, MemoryConflictError, type MemoryContext, withUnit } from "@/lib/memory/core";
import { getMemory, type Memory, mergeMemories, updateMemory } from "@/lib/memory/store";
import { type ReviewTurn, reviewReason } from "./gate";
import { getProposal, type Proposal, propose } from "./proposals";

/** A consolidation op checked against the group it was shown: the memories it changes, at the versions shown. */
export type ConsolidationWrite =
  | { op: "merge"; into: Shown; from: Shown[]; reason: string }
  | { op: "close"; ids: Shown[]; validTo: Date; reason: string; supersededBy?: string };

type Shown = { id: string; version: number };

export type ConsolidationDecision =
  | { decision: "applied"; written: Memory[] }
  | { decision: "held"; proposals: Proposal[]; why: string }
  | { decision: "awaiting"; proposal: Proposal; why: string };

/** Decides one op and makes it or proposes it, in one unit of work under the user's writer lock. */
export async function gateConsolidation(
  ctx: MemoryContext,
  turn: ReviewTurn,
  write: ConsolidationWrite,
): Promise<ConsolidationDecision> {
  return withUnit(ctx, async (tx) => {
    await tx.unit!.serializeUserWrites();
    const shown = write.op === "merge" ? [write.into, ...write.from] : write.ids;
    const current = await Promise.all(shown.map((entry) => getMemory(tx, entry.id)));
    for (const [index, memory] of current.entries()) {
      if (memory.status !== "active" || memory.version !== shown[index]!.version) {
        throw new MemoryConflictError(
          `Memory ${memory.id} changed since it was shown (version ${shown[index]!.version}, now ${memory.version}, ${memory.status}).`,
          memory.version,
        );
      }
    }
    const awaiting = await pendingFor(
      tx,
      write.op === "merge" ? "merge" : "update",
      current.map((m) => m.id),
    );
    if (awaiting) {
      return {
        decision: "awaiting",
        proposal: await getProposal(tx, awaiting),
        why: `already awaiting the user's review as proposal ${awaiting}`,
      };
    }
    const edited = current.filter((memory) => memory.actor.type === "user");
    const why =
      edited.length > 0
        ? `last changed by the user (memory ${edited.map((memory) => memory.id).join(", ")}): only proposed`
        : await reviewReason(tx, turn, "update");
    if (why) return { decision: "held", proposals: await proposeWrite(tx, write, current), why };
    if (write.op === "merge") {
      const { into, merged } = await mergeMemories(tx, write);
      return { decision: "applied", written: [...merged, into] };
    }
    const written: Memory[] = [];
    for (const entry of write.ids) {
      written.push(
        await updateMemory(tx, entry.id, {
          validTo: write.validTo,
          expectedVersion: entry.version,
          reason: write.reason,
        }),
      );
    }
    return { decision: "applied", written };
  });
}

/** The proposals a held op becomes: one merge, or one closing update per memory. */
async function proposeWrite(ctx: MemoryContext, write: ConsolidationWrite, current: Memory[]): Promise<Proposal[]> {
  const at = (memory: Memory) => ({
    memoryId: memory.id,
    expectedVersion: memory.version,
    namespace: absoluteNamespace(ctx.principal.root, memory.namespace),
    kind: memory.kind,
    text: memory.text,
    contentHash: memory.contentHash,
  });
  if (write.op === "merge") {
    const [into] = current;
    return [
      await propose(ctx, {
        op: "merge",
        ...at(into!),
        content: { from: write.from },
        reason: write.reason,
      }),
    ];
  }
  const proposals: Proposal[] = [];
  for (const memory of current) {
    proposals.push(
      await propose(ctx, {
        op: "update",
        ...at(memory),
        content: memory.content,
        validTo: write.validTo,
        reason: write.reason,
      }),
    );
  }
  return proposals;
}

/** A pending proposal of this op on any of these memories: the change already waits for the user. */
async function pendingFor(ctx: MemoryContext, op: "merge" | "update", ids: string[]): Promise<string | null> {
  if (ids.length === 0) return null;
  const [row] = await asUser(ctx, ({ db }) =>
    db
      .select({ id: memoryProposals.id })
      .from(memoryProposals)
      .where(
        and(
          eq(memoryProposals.userId, ctx.principal.userId),
          eq(memoryProposals.status, "pending"),
          eq(memoryProposals.op, op),
          inArray(memoryProposals.memoryId, ids),
          // A held extraction update of the memory is another change; a held close carries its validTo.
          op === "update" ? isNotNull(memoryProposals.validTo) : undefined,
        ),
      )
      .limit(1),
  );
  return row?.id ?? null;
}

// The gate for a consolidation run's ops (docs/memory-model.md, "Consolidation"): the same review mode as every
// model write, a person's own edit changed only through a proposal, and no change proposed twice, nor one the user
// rejected (rejected-changes.ts). Supersede and expire only close a fact; a merge keeps the standing memory's text or
// gives it a wording holding what each memory said, which is held to the rules and screened against the facts the
// user deleted, as any new words are.

import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { memoryProposals } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import {
  absoluteNamespace,
  defaultKinds,
  factKey,
  MemoryConflictError,
  type MemoryContext,
  type PreparedContent,
  prepareContent,
  withUnit,
} from "@/lib/memory/core";
import { getMemory, type Memory, mergeMemories, updateMemory } from "@/lib/memory/store";
import { holdToRules, type ReviewTurn, reviewReason, screenRestatement } from "./gate";
import { getProposal, type Proposal, propose } from "./proposals";
import { userRejections } from "./rejected-changes";

/** A consolidation op checked against the group it was shown: the memories it changes, at the versions shown. */
export type ConsolidationWrite =
  | {
      op: "merge";
      into: Shown;
      from: Shown[];
      reason: string;
      /** The standing memory's new content, a wording holding what each memory said; absent, its own stands. */
      content?: unknown;
    }
  | { op: "close"; ids: Shown[]; validTo: Date; reason: string; supersededBy?: string };

type Shown = { id: string; version: number };

export type ConsolidationDecision =
  | { decision: "applied"; written: Memory[] }
  | { decision: "held"; proposals: Proposal[]; why: string }
  | { decision: "awaiting"; proposal: Proposal; why: string }
  | { decision: "refused"; why: string };

/** Decides one op and makes it or proposes it, in one unit of work under the user's writer lock. */
export async function gateConsolidation(
  ctx: MemoryContext,
  turn: ReviewTurn,
  proposed: ConsolidationWrite,
): Promise<ConsolidationDecision> {
  return withUnit(ctx, async (tx) => {
    await tx.unit!.serializeUserWrites();
    const left = await withoutWhatTheUserKept(tx, proposed);
    if ("refused" in left) return { decision: "refused", why: left.refused };
    const write = left;
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
    const wording = write.op === "merge" ? wordingOf(tx, current[0]!, write.content) : undefined;
    if (write.op === "merge" && wording) {
      const screened = await screenRestatement(
        tx,
        wording,
        mergeChange(tx, write, current, wording),
        "the new content ",
      );
      if (screened?.decision === "held") return { decision: "held", proposals: [screened.proposal], why: screened.why };
      if (screened) return screened;
    }
    const edited = current.filter((memory) => memory.actor.type === "user");
    const why =
      edited.length > 0
        ? `last changed by the user (memory ${edited.map((memory) => memory.id).join(", ")}): only proposed`
        : await reviewReason(tx, turn, "update");
    if (why) {
      // A wording the rules refuse is not offered to the user either (an applied one the store holds to them).
      if (wording) await holdToRules(tx, wording);
      return { decision: "held", proposals: await proposeWrite(tx, write, current, wording), why };
    }
    if (write.op === "merge") {
      const { into, merged, reworded } = await mergeMemories(tx, { ...write, content: wording?.content });
      return { decision: "applied", written: [...merged, ...(reworded ? [reworded] : []), into] };
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

/** A merge's new wording as the standing memory's kind reads it; undefined when there is none or it says the same. */
function wordingOf(ctx: MemoryContext, into: Memory, content: unknown): PreparedContent | undefined {
  if (content === undefined) return undefined;
  const prepared = prepareContent(ctx.kinds ?? defaultKinds, into.kind, content);
  return factKey(prepared.text) === factKey(into.text) ? undefined : prepared;
}

const at = (ctx: MemoryContext, memory: Memory) => ({
  memoryId: memory.id,
  expectedVersion: memory.version,
  namespace: absoluteNamespace(ctx.principal.root, memory.namespace),
  kind: memory.kind,
  text: memory.text,
  contentHash: memory.contentHash,
});

/** A merge as a proposal: the standing memory, the ones folded in, and the wording it would take (shown as its text). */
function mergeChange(
  ctx: MemoryContext,
  write: Extract<ConsolidationWrite, { op: "merge" }>,
  current: Memory[],
  wording: PreparedContent | undefined,
) {
  return {
    op: "merge" as const,
    ...at(ctx, current[0]!),
    ...(wording ? { text: wording.text, contentHash: wording.contentHash } : {}),
    content: wording ? { from: write.from, content: wording.content } : { from: write.from },
    reason: write.reason,
  };
}

/** The proposals a held op becomes: one merge, or one closing update per memory. */
async function proposeWrite(
  ctx: MemoryContext,
  write: ConsolidationWrite,
  current: Memory[],
  wording: PreparedContent | undefined,
): Promise<Proposal[]> {
  if (write.op === "merge") return [await propose(ctx, mergeChange(ctx, write, current, wording))];
  const proposals: Proposal[] = [];
  for (const memory of current) {
    proposals.push(
      await propose(ctx, {
        op: "update",
        ...at(ctx, memory),
        content: memory.content,
        validTo: write.validTo,
        reason: write.reason,
      }),
    );
  }
  return proposals;
}

/**
 * The op without what the user kept (rejected-changes.ts): members of a merge they kept apart from the standing memory
 * or from a member kept before them; a memory they kept standing is the one a merge keeps (folded away, its rejected
 * close would come back on the copy), and others kept standing stay out; memories they kept standing out of a close. A merge that loses a member loses its wording too, which held what that
 * member said, as does one into a memory kept standing, whose words would change. Refused when nothing is left.
 */
async function withoutWhatTheUserKept(
  ctx: MemoryContext,
  write: ConsolidationWrite,
): Promise<ConsolidationWrite | { refused: string }> {
  const { apart, standing } = await asUser(ctx, (unit) => userRejections(unit, ctx.principal.userId));
  const standingOne = (id: string) => standing.find((memory) => memory.id === id);
  if (write.op === "merge") {
    // A duplicate the model would fold a memory kept standing into is folded into that memory instead.
    const keeper = standingOne(write.into.id) ? undefined : write.from.find((member) => standingOne(member.id));
    const into = keeper ?? write.into;
    const members = keeper ? [write.into, ...write.from.filter((member) => member !== keeper)] : write.from;
    const together = new Set([into.id]);
    const from: typeof write.from = [];
    let proposal: string | undefined;
    for (const member of members) {
      const kept = apart.find((pair) => pair.a === member.id && together.has(pair.b)) ?? standingOne(member.id);
      proposal ??= kept?.proposal;
      if (kept) continue;
      together.add(member.id);
      from.push(member);
    }
    if (from.length === 0)
      return { refused: `the user kept these memories as they are, rejecting proposal ${proposal}` };
    const keepsWords = from.length < write.from.length || standingOne(into.id) !== undefined;
    return keepsWords ? { op: "merge", into, from, reason: write.reason } : write;
  }
  const kept = write.ids.map((entry) => standingOne(entry.id)).filter((memory) => memory !== undefined);
  const ids = write.ids.filter((entry) => !standingOne(entry.id));
  if (ids.length === 0) return { refused: `the user kept this standing, rejecting proposal ${kept[0]!.proposal}` };
  return kept.length === 0 ? write : { ...write, ids };
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

import { sql } from "drizzle-orm";
import { memories, memoryVersions } from "@/lib/db/schema";
import { asUser, type UnitOfWork, type UserBinding } from "@/lib/db/unit-of-work";
import { parseInput, ValidationError } from "@/lib/errors";
import { createMemoryInputSchema, instantValue, LIMITS } from "@/lib/memory/contract";
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
import {
  checkValidity,
  createMemory,
  deleteMemory,
  enforceRules,
  existingFact,
  getMemory,
  type Memory,
  supersedeMemory,
  updateMemory,
} from "@/lib/memory/store";
import { matchingProposal, type Proposal, type ProposedChange, propose } from "./proposals";
import { getSettings, type ReviewMode } from "./settings";

/*
 * The gate (docs/memory-model.md, "The gate"): every change a model asks for — the chat's tools, the background
 * manager, the optimizer — passes here, so one input meets one decision whichever surface it came from. It validates
 * the write, holds it to the user's rules, answers a fact the user already has with that memory, refuses or proposes
 * what restates a fact the user deleted or rejected, and applies the rest or holds it as a proposal by the user's
 * review mode and the per-turn delete limit. People and apps with a key write through the store directly (the store
 * still holds apps to the rules).
 */

/** One chat turn's or one run's review state: deletes asked for so far, and the user's review mode once read. */
export interface ReviewTurn {
  deletes: number;
  mode?: Promise<ReviewMode>;
}

export const newReviewTurn = (): ReviewTurn => ({ deletes: 0 });

type Instant = Date | string;
type WriteSource = { messageId?: string; quote?: string };

/** A change a model asks for. An update with `validFrom` supersedes: the fact changed in the world then. */
export type ModelWrite =
  | {
      op: "insert";
      kind?: string;
      content: unknown;
      /** Relative to the caller's root. */
      namespace?: string[];
      validFrom?: Instant;
      validTo?: Instant;
      reason: string;
      provenance?: WriteSource;
    }
  | {
      op: "update";
      id: string;
      content: unknown;
      expectedVersion?: number;
      validFrom?: Instant;
      within?: string[];
      reason?: string;
      provenance?: WriteSource;
    }
  | {
      op: "delete";
      id: string;
      expectedVersion?: number;
      within?: string[];
      reason?: string;
      provenance?: WriteSource;
    };

export type GateDecision =
  /** Written. A superseding update: `memory` is the new one, `closed` the old one, kept with its validTo. */
  | { decision: "applied"; memory: Memory; closed?: Memory }
  /** Nothing to write: the user already has this fact, the memory already says it, or it is already deleted. */
  | { decision: "unchanged"; memory: Memory; why: string }
  /**
   * Waits for the user as a proposal; `memory` is the one it would change, as it stands. `restated`: held because it
   * restates a fact the user deleted or rejected (the proposal's reason says when), whatever the review mode.
   */
  | { decision: "held"; proposal: Proposal; why: string; restated: boolean; memory?: Memory }
  /** The same change already waits for the user's review as `proposal`: nothing new is proposed. */
  | { decision: "awaiting"; proposal: Proposal; why: string }
  /** Neither written nor proposed: the background manager restating a fact the user deleted or rejected. */
  | { decision: "refused"; why: string };

/** Trigram similarity above which a write counts as restating a deleted memory or a rejected proposal. */
export const RESTATEMENT_SIMILARITY = 0.6;

const MODEL_ACTORS = new Set(["agent", "extractor"]);

/** Decides a model's write, and makes it or proposes it, in one unit of work under the user's writer lock. */
export async function gate(ctx: MemoryContext, turn: ReviewTurn, write: ModelWrite): Promise<GateDecision> {
  return withUnit(ctx, async (tx) => {
    await tx.unit!.serializeUserWrites();
    if (write.op === "insert") return gateInsert(tx, turn, write);
    if (write.op === "update") return gateUpdate(tx, turn, write);
    return gateDelete(tx, turn, write);
  });
}

/** Why a change of the user's instructions by the optimizer waits for them, or null when it applies now. */
export async function instructionsReviewReason(binding: UserBinding): Promise<string | null> {
  const { review } = await getSettings(binding);
  return review === "off" ? null : `review mode ${review}: a change of your instructions waits for you`;
}

async function gateInsert(
  ctx: MemoryContext,
  turn: ReviewTurn,
  write: Extract<ModelWrite, { op: "insert" }>,
): Promise<GateDecision> {
  const input = parseInput(createMemoryInputSchema, {
    kind: write.kind,
    content: write.content,
    namespace: write.namespace,
    validFrom: write.validFrom,
    validTo: write.validTo,
    reason: write.reason,
    provenance: write.provenance,
  });
  checkValidity(input.validFrom ?? null, input.validTo ?? null);
  const kind = input.kind ?? "memory";
  const prepared = prepareContent(ctx.kinds ?? defaultKinds, kind, input.content);
  await holdToRules(ctx, prepared);
  const existing = await existingFact(ctx, input);
  if (existing) {
    return { decision: "unchanged", memory: existing, why: `already remembered as memory ${existing.id}` };
  }
  const change: ProposedChange = {
    op: "insert",
    namespace: absoluteNamespace(ctx.principal.root, input.namespace ?? []),
    kind,
    content: prepared.content,
    text: prepared.text,
    contentHash: prepared.contentHash,
    validFrom: input.validFrom ?? undefined,
    validTo: input.validTo ?? undefined,
    reason: write.reason,
    provenance: write.provenance,
  };
  const screened = await screenRestatement(ctx, prepared, change, "");
  if (screened) return screened;
  const why = await reviewReason(ctx, turn, "insert");
  if (why) return { decision: "held", proposal: await propose(ctx, change), why, restated: false };
  // No second same-fact lookup: the gate holds the user's writer lock since existingFact looked (see gate()).
  return { decision: "applied", memory: await createMemory(ctx, input) };
}

async function gateUpdate(
  ctx: MemoryContext,
  turn: ReviewTurn,
  write: Extract<ModelWrite, { op: "update" }>,
): Promise<GateDecision> {
  const current = await currentAt(ctx, write.id, write);
  if (current.status === "deleted") {
    throw new MemoryConflictError("The memory is deleted; restore it before updating.", current.version);
  }
  const validFrom = write.validFrom === undefined ? undefined : parseInput(instantValue, write.validFrom);
  if (validFrom && (ctx.kinds ?? defaultKinds).get(current.kind).singletonKey) {
    throw new ValidationError(`A ${current.kind} is updated in place; it cannot be superseded.`);
  }
  const prepared = prepareContent(ctx.kinds ?? defaultKinds, current.kind, write.content);
  if (factKey(prepared.text) === factKey(current.text)) {
    return { decision: "unchanged", memory: current, why: "the memory already says this" };
  }
  await holdToRules(ctx, prepared);
  const reason = write.reason ?? "the model asked to change it";
  const change: ProposedChange = {
    op: "update",
    memoryId: current.id,
    expectedVersion: current.version,
    namespace: absoluteNamespace(ctx.principal.root, current.namespace),
    kind: current.kind,
    content: prepared.content,
    text: prepared.text,
    contentHash: prepared.contentHash,
    validFrom,
    reason,
    provenance: write.provenance,
  };
  const screened = await screenRestatement(ctx, prepared, change, "the new content ");
  if (screened?.decision === "held") return { ...screened, memory: current };
  if (screened) return screened;
  const why = await reviewReason(ctx, turn, "update");
  if (why) return { decision: "held", proposal: await propose(ctx, change), why, restated: false, memory: current };
  const options = { expectedVersion: current.version, reason, provenance: write.provenance };
  if (validFrom) {
    const { closed, created } = await supersedeMemory(ctx, current.id, {
      ...options,
      content: prepared.content,
      validFrom,
    });
    return { decision: "applied", memory: created, closed };
  }
  return {
    decision: "applied",
    memory: await updateMemory(ctx, current.id, { ...options, content: prepared.content }),
  };
}

async function gateDelete(
  ctx: MemoryContext,
  turn: ReviewTurn,
  write: Extract<ModelWrite, { op: "delete" }>,
): Promise<GateDecision> {
  const current = await currentAt(ctx, write.id, write);
  if (current.status === "deleted") return { decision: "unchanged", memory: current, why: "already deleted" };
  const reason = write.reason ?? "the model asked to delete it";
  const why = await reviewReason(ctx, turn, "delete");
  if (why) {
    const proposal = await propose(ctx, {
      op: "delete",
      memoryId: current.id,
      expectedVersion: current.version,
      namespace: absoluteNamespace(ctx.principal.root, current.namespace),
      kind: current.kind,
      text: current.text,
      contentHash: current.contentHash,
      reason,
      provenance: write.provenance,
    });
    return { decision: "held", proposal, why, restated: false, memory: current };
  }
  const memory = await deleteMemory(ctx, current.id, {
    expectedVersion: current.version,
    reason,
    provenance: write.provenance,
  });
  return { decision: "applied", memory };
}

/** Why this write of the context's writer waits for the user's approval, or null when it applies now. */
export async function reviewReason(
  ctx: MemoryContext,
  turn: ReviewTurn,
  op: "insert" | "update" | "delete",
): Promise<string | null> {
  if (!MODEL_ACTORS.has(ctx.actor.type)) return null;
  turn.mode ??= getSettings(ctx).then((settings) => settings.review);
  const mode = await turn.mode;
  if (mode === "off") return null;
  if (mode === "all") return "review mode all: every change a model asks for waits for you";
  if (op !== "delete") return null;
  turn.deletes += 1;
  return turn.deletes > 1 ? "review mode deletes: a delete beyond the first in one turn waits" : null;
}

export async function holdToRules(ctx: MemoryContext, prepared: PreparedContent): Promise<void> {
  await asUser(ctx, (unit) => enforceRules(ctx, unit, [prepared.text]));
}

/**
 * What becomes of a write restating a fact already decided: one awaiting review is not proposed twice; one the user
 * deleted or rejected is never silently written again — the background manager drops it (the run says why), and the
 * chat model's write becomes a proposal saying when and what the user asked. Null when the fact is new.
 */
export async function screenRestatement(
  ctx: MemoryContext,
  prepared: PreparedContent,
  change: ProposedChange,
  subject: "" | "the new content ",
): Promise<Extract<GateDecision, { decision: "held" | "awaiting" | "refused" }> | null> {
  // People and apps with a key say what to keep themselves: they are not second-guessed by earlier decisions.
  if (!MODEL_ACTORS.has(ctx.actor.type)) return null;
  const content = { text: prepared.text, contentHash: prepared.contentHash };
  const proposal = await asUser(ctx, (unit) => matchingProposal(ctx, unit, content, RESTATEMENT_SIMILARITY));
  if (proposal?.status === "pending") {
    return {
      decision: "awaiting",
      proposal,
      why: `already awaiting the user's review as proposal ${proposal.id}`,
    };
  }
  const tombstone = await asUser(ctx, (unit) => matchingTombstone(unit, content));
  const decided = tombstone
    ? {
        refusal: `deleted by the user: ${subject}restates a deleted memory (${tombstone.id})`,
        asked: tombstone.asked,
        held: `restates memory ${tombstone.id}, deleted on ${day(tombstone.at)}`,
      }
    : proposal
      ? {
          refusal: `rejected by the user in review: ${subject}restates a rejected proposal (${proposal.id})`,
          asked: `You rejected this in review on ${day(proposal.decidedAt)}${proposal.decisionReason ? ` (${excerpt(proposal.decisionReason)})` : ""}`,
          held: `restates proposal ${proposal.id}, rejected on ${day(proposal.decidedAt)}`,
        }
      : null;
  if (!decided) return null;
  if (ctx.actor.type === "extractor") return { decision: "refused", why: decided.refusal };
  const reason = `${decided.asked}: remember it again?`.slice(0, LIMITS.reasonChars);
  return { decision: "held", proposal: await propose(ctx, { ...change, reason }), why: decided.held, restated: true };
}

/**
 * The user's deleted memory with this content (same hash, or text this similar), with when and how it was deleted:
 * by the user themselves, or by a model at their request (the words they asked with, when recorded).
 */
async function matchingTombstone(
  unit: UnitOfWork,
  content: { text: string; contentHash: string },
): Promise<{ id: string; at: Date; asked: string } | null> {
  const [row] = await unit.rows<{ id: string; at: Date | string; actorType: string; quote: string | null }>(sql`
    select m.id as id, v.created_at as at, v.actor_type as "actorType", v.quote as quote
    from ${memories} m
    -- Both sides name the user by value: Citus plans the statement on that user's shard (docs/configuration.md).
    join lateral (
      select created_at, actor_type, quote from ${memoryVersions}
      where user_id = ${unit.userId} and memory_id = m.id and op = 'delete'
      order by version desc limit 1
    ) v on true
    where m.user_id = ${unit.userId}
      and m.status = 'deleted'
      and (m.content_hash = ${content.contentHash}
           or (m.text is not null and similarity(m.text, ${content.text}) >= ${RESTATEMENT_SIMILARITY}))
    order by v.created_at desc
    limit 1`);
  if (!row) return null;
  const at = new Date(row.at);
  const asked = MODEL_ACTORS.has(row.actorType)
    ? `You asked me to forget this on ${day(at)}${row.quote ? ` (${excerpt(row.quote)})` : ""}`
    : `You deleted this on ${day(at)}`;
  return { id: row.id, at, asked };
}

/** The user's words, cut to fit in a sentence. */
const excerpt = (words: string) => `"${words.length > 120 ? `${words.slice(0, 119).trimEnd()}…` : words}"`;

/** A day as people write it, e.g. "12 Nov 2026" (UTC, as every stored time). */
const day = (at: Date | null) =>
  at
    ? at.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })
    : "an earlier day";

/** The memory as it stands, which must be at `expectedVersion` when one is given (else a conflict, as in the store). */
async function currentAt(
  ctx: MemoryContext,
  id: string,
  options: { expectedVersion?: number; within?: string[] },
): Promise<Memory> {
  const current = await getMemory(ctx, id, { within: options.within });
  if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
    throw new MemoryConflictError(
      `Expected version ${options.expectedVersion}, but the memory is at version ${current.version}.`,
      current.version,
    );
  }
  return current;
}

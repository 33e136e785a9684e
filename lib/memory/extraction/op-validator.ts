import { sql } from "drizzle-orm";
import { memories } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import { AppError } from "@/lib/errors";
import { defaultKinds, factKey, MemoryConflictError, type MemoryContext, prepareContent } from "@/lib/memory/core";
import {
  gatedCreate,
  gatedDelete,
  gatedUpdate,
  type Held,
  isHeld,
  matchingProposal,
  newReviewTurn,
  reviewReason,
} from "@/lib/memory/review";
import { getMemory, type Memory, supersedeMemory } from "@/lib/memory/store";
import { allowedKinds, allowedOps, type ExtractionConfig } from "./manager-input";
import type { AppliedOp, ExtractionOp } from "./ops";
import type { PromptMemory, PromptMessage } from "./prompt";

type Verdict = AppliedOp | Held | { reason: string };

/** Trigram similarity above which an insert counts as restating a deleted fact. */
const TOMBSTONE_SIMILARITY = 0.6;

/**
 * Checks one proposed op against what the manager was shown and what the user said, and applies it, or says why
 * not. Every op that writes must rest on the user's own words (a quote from one of their new messages: an
 * assistant's "since you are allergic to peanuts…" is no evidence); a write never restates a deleted fact; an update
 * or delete applies only to the version the manager was shown, so a newer edit (the user's own) always stands; a fact
 * the user already has is not written twice.
 */
export class OpValidator {
  readonly #shown: Map<string, PromptMemory>;
  readonly #messages: Map<string, PromptMessage>;
  readonly #turn = newReviewTurn();

  constructor(
    private readonly ctx: MemoryContext,
    private readonly config: ExtractionConfig,
    shown: PromptMemory[],
    newMessages: PromptMessage[],
  ) {
    this.#shown = new Map(shown.map((memory) => [memory.id, memory]));
    this.#messages = new Map(newMessages.map((message) => [message.id, message]));
  }

  async apply(op: ExtractionOp): Promise<Verdict> {
    if (!allowedOps(this.config).includes(op.op)) return { reason: `${op.op} operations are disabled` };
    try {
      const problem = this.checkSource(op.messageId, op.quote);
      if (problem) return { reason: problem };
      if (op.op === "insert") return await this.insert(op);
      if (op.op === "update") return await this.update(op);
      return await this.remove(op);
    } catch (error) {
      if (error instanceof AppError) return { reason: error.message };
      throw error;
    }
  }

  /** The op's evidence: an exact quote from a new message the user wrote. */
  private checkSource(messageId: string, quote: string): string | null {
    const message = this.#messages.get(messageId);
    if (!message) return "the cited message is not among the new messages";
    if (message.role !== "user") {
      return `the cited message is the ${message.role}'s, not the user's: only the user's own words are evidence`;
    }
    if (!factKey(message.text).includes(factKey(quote))) return "the quote does not occur in the cited message";
    return null;
  }

  /** The memory as the manager was shown it, if `expectedVersion` is that version. */
  private shownVersion(id: string, expectedVersion?: number): PromptMemory | { reason: string } {
    const shown = this.#shown.get(id);
    if (!shown) return { reason: "unknown id: not among the memories shown to the manager" };
    if (expectedVersion !== undefined && expectedVersion !== shown.version) {
      return { reason: `claims version ${expectedVersion}, but the manager was shown version ${shown.version}` };
    }
    return shown;
  }

  /** Why a write at the shown version failed because the memory changed since: the newer version stands. */
  private async changedSince(id: string, shown: PromptMemory, error: unknown): Promise<{ reason: string }> {
    if (!(error instanceof MemoryConflictError)) throw error;
    const current = await getMemory(this.ctx, id);
    const by = current.actor.type === "user" ? "the user" : `${current.actor.type} ${current.actor.id}`;
    return {
      reason: `the memory changed after the manager read it (shown version ${shown.version}, now version ${current.version} by ${by}): the newer version stands`,
    };
  }

  private async insert(op: Extract<ExtractionOp, { op: "insert" }>): Promise<Verdict> {
    if (!allowedKinds(this.ctx, this.config).includes(op.kind)) return { reason: `kind "${op.kind}" is not allowed` };
    const prepared = prepareContent(this.ctx.kinds ?? defaultKinds, op.kind, op.content);
    const suppressed = await this.matchingTombstone(prepared.text, prepared.contentHash);
    if (suppressed) return { reason: `deleted by the user: restates a deleted memory (${suppressed})` };
    const proposal = await this.matchingProposal(prepared.text, prepared.contentHash);
    if (proposal) return proposal;
    const outcome = await gatedCreate(this.ctx, this.#turn, {
      kind: op.kind,
      content: prepared.content,
      validFrom: op.validFrom,
      validTo: op.validTo,
      reason: "extracted from the conversation",
      provenance: { messageId: op.messageId, quote: op.quote },
    });
    if (isHeld(outcome)) return outcome;
    const { memory, created } = outcome;
    if (!created) return { reason: `already remembered as memory ${memory.id}: nothing to do` };
    return { op: "insert", memoryId: memory.id, version: memory.version, text: memory.text };
  }

  private async update(op: Extract<ExtractionOp, { op: "update" }>): Promise<Verdict> {
    const shown = this.shownVersion(op.id, op.expectedVersion);
    if ("reason" in shown) return shown;
    const prepared = prepareContent(this.ctx.kinds ?? defaultKinds, shown.kind, op.content);
    if (factKey(prepared.text) === factKey(shown.text))
      return { reason: "the memory already says this: nothing to do" };
    const suppressed = await this.matchingTombstone(prepared.text, prepared.contentHash);
    if (suppressed) return { reason: `deleted by the user: the new content restates a deleted memory (${suppressed})` };
    const proposal = await this.matchingProposal(prepared.text, prepared.contentHash);
    if (proposal) return proposal;
    // A change in the world closes the old fact and starts a new one, unless review holds the update for the user.
    if (op.validFrom && !(await reviewReason(this.ctx, this.#turn, "update"))) {
      return this.supersede(op, op.validFrom, shown, prepared.content);
    }
    return this.atShownVersion(op, shown, (change) =>
      gatedUpdate(this.ctx, this.#turn, op.id, prepared.content, change),
    );
  }

  /** The fact changed in the world at `validFrom`: the shown memory is closed then, a new one holds the new value. */
  private async supersede(
    op: Extract<ExtractionOp, { op: "update" }>,
    validFrom: string,
    shown: PromptMemory,
    content: unknown,
  ): Promise<Verdict> {
    try {
      const { closed, created } = await supersedeMemory(this.ctx, op.id, {
        content,
        validFrom,
        expectedVersion: shown.version,
        reason: op.reason,
        provenance: { messageId: op.messageId, quote: op.quote },
      });
      return {
        op: "update",
        memoryId: closed.id,
        version: closed.version,
        text: closed.text,
        supersededBy: { memoryId: created.id, version: created.version, text: created.text },
      };
    } catch (error) {
      if (error instanceof MemoryConflictError) return this.changedSince(op.id, shown, error);
      throw error;
    }
  }

  private async remove(op: Extract<ExtractionOp, { op: "delete" }>): Promise<Verdict> {
    const shown = this.shownVersion(op.id);
    if ("reason" in shown) return shown;
    return this.atShownVersion(op, shown, (change) => gatedDelete(this.ctx, this.#turn, op.id, change));
  }

  /** Writes `op` as a change of the version the manager was shown; a newer version stands (see changedSince). */
  private async atShownVersion(
    op: Extract<ExtractionOp, { op: "update" | "delete" }>,
    shown: PromptMemory,
    write: (change: {
      expectedVersion: number;
      reason: string;
      provenance: { messageId: string; quote: string };
    }) => Promise<{ memory: Memory } | Held>,
  ): Promise<Verdict> {
    try {
      const outcome = await write({
        expectedVersion: shown.version,
        reason: op.reason,
        provenance: { messageId: op.messageId, quote: op.quote },
      });
      if (isHeld(outcome)) return outcome;
      const { memory } = outcome;
      return { op: op.op, memoryId: memory.id, version: memory.version, text: memory.text };
    } catch (error) {
      return this.changedSince(op.id, shown, error);
    }
  }

  /** The user rejected this fact in review (suppressed like a tombstone), or it already awaits their review. */
  private async matchingProposal(text: string, hash: string): Promise<{ reason: string } | null> {
    const found = await asUser(this.ctx, (unit) =>
      matchingProposal(unit, { text, contentHash: hash }, TOMBSTONE_SIMILARITY),
    );
    if (!found) return null;
    if (found.status === "pending") return { reason: `already awaiting the user's review as proposal ${found.id}` };
    return { reason: `rejected by the user in review: restates a rejected proposal (${found.id})` };
  }

  /** A deleted memory in the caller's namespace with the same hash, or text this similar; returns its id. */
  private async matchingTombstone(text: string, hash: string): Promise<string | null> {
    const [row] = await asUser(this.ctx, (unit) =>
      unit.rows<{ id: string }>(sql`
      select ${memories.id} as id from ${memories}
      where ${memories.userId} = ${this.ctx.principal.userId}
        and ${memories.status} = 'deleted'
        and (${memories.contentHash} = ${hash}
             or (${memories.text} is not null and similarity(${memories.text}, ${text}) >= ${TOMBSTONE_SIMILARITY}))
      limit 1`),
    );
    return row?.id ?? null;
  }
}

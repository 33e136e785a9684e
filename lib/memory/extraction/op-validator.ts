import { AppError } from "@/lib/errors";
import { factKey, MemoryConflictError, type MemoryContext } from "@/lib/memory/core";
import { type GateDecision, gate, newReviewTurn, type Proposal } from "@/lib/memory/review";
import { getMemory } from "@/lib/memory/store";
import { allowedKinds, allowedOps, type ExtractionConfig } from "./manager-input";
import type { AppliedOp, ExtractionOp } from "./ops";
import type { PromptMemory, PromptMessage } from "./prompt";

/** An op applied, held for the user's review as a proposal, or not applied with why. */
export type Verdict = AppliedOp | Held | { reason: string };
export type Held = { proposal: Proposal; why: string };

export const isHeld = (verdict: Verdict): verdict is Held => "proposal" in verdict;

/**
 * Checks one proposed op against what the manager was shown and what the user said, then hands it to the gate
 * (lib/memory/review/gate.ts), which applies it, holds it for review or refuses it. Every op that writes must rest on
 * the user's own words (a quote from one of their new messages: an assistant's "since you are allergic to peanuts…"
 * is no evidence); an update or delete applies only to the version the manager was shown, so a newer edit (the
 * user's own) always stands.
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
    return this.verdict(
      op,
      await gate(this.ctx, this.#turn, {
        op: "insert",
        kind: op.kind,
        content: op.content,
        validFrom: op.validFrom,
        validTo: op.validTo,
        reason: "extracted from the conversation",
        provenance: { messageId: op.messageId, quote: op.quote },
      }),
    );
  }

  private async update(op: Extract<ExtractionOp, { op: "update" }>): Promise<Verdict> {
    const shown = this.shownVersion(op.id, op.expectedVersion);
    if ("reason" in shown) return shown;
    return this.atShownVersion(op, shown, (change) =>
      gate(this.ctx, this.#turn, {
        op: "update",
        id: op.id,
        content: op.content,
        validFrom: op.validFrom,
        ...change,
      }),
    );
  }

  private async remove(op: Extract<ExtractionOp, { op: "delete" }>): Promise<Verdict> {
    const shown = this.shownVersion(op.id);
    if ("reason" in shown) return shown;
    return this.atShownVersion(op, shown, (change) =>
      gate(this.ctx, this.#turn, { op: "delete", id: op.id, ...change }),
    );
  }

  /** Writes `op` as a change of the version the manager was shown; a newer version stands (see changedSince). */
  private async atShownVersion(
    op: Extract<ExtractionOp, { op: "update" | "delete" }>,
    shown: PromptMemory,
    write: (change: {
      expectedVersion: number;
      reason: string;
      provenance: { messageId: string; quote: string };
    }) => Promise<GateDecision>,
  ): Promise<Verdict> {
    try {
      const decision = await write({
        expectedVersion: shown.version,
        reason: op.reason,
        provenance: { messageId: op.messageId, quote: op.quote },
      });
      return this.verdict(op, decision);
    } catch (error) {
      return this.changedSince(op.id, shown, error);
    }
  }

  /** The gate's decision as the run records it. */
  private verdict(op: ExtractionOp, decision: GateDecision): Verdict {
    switch (decision.decision) {
      case "refused":
      case "awaiting":
        return { reason: decision.why };
      case "held":
        return { proposal: decision.proposal, why: decision.why };
      case "unchanged":
        return { reason: `${decision.why}: nothing to do` };
      case "applied": {
        const { memory, closed } = decision;
        if (closed) {
          return {
            op: "update",
            memoryId: closed.id,
            version: closed.version,
            text: closed.text,
            supersededBy: { memoryId: memory.id, version: memory.version, text: memory.text },
          };
        }
        return { op: op.op, memoryId: memory.id, version: memory.version, text: memory.text };
      }
    }
  }
}

import { z } from "zod";
import { type ActionResult, AppError, parseInput, settleAction } from "@/lib/errors";
import { LIMITS, REVIEW_MODES } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { currentInstructions } from "@/lib/memory/procedural";
import { approveProposal, listProposals, type Proposal, rejectProposal, updateSettings } from "@/lib/memory/review";
import { createRule, deleteRule, getMemory } from "@/lib/memory/store";

/** One row of the Review page: the proposal, and the memory it would change as it stands now. */
export interface ReviewItem {
  id: string;
  op: Proposal["op"];
  kind: string | null;
  /** What approving writes: the memory's content for its kind, or the instructions' text. */
  content: unknown;
  text: string;
  /** The dates the op gives the fact; on an update, `validFrom` means approving supersedes. */
  validFrom: string | null;
  validTo: string | null;
  quote: string | null;
  reason: string;
  actor: string;
  threadId: string | null;
  runId: string | null;
  status: Proposal["status"];
  decisionReason: string | null;
  createdAt: string;
  current: { id: string; text: string; version: number; status: string; stale: boolean } | null;
  /** op `instructions`: the instructions as they stand, to diff the proposed text against. */
  instructions?: { text: string; version: number; stale: boolean };
}

export async function loadReviewQueue(
  ctx: MemoryContext,
  options: { status?: Proposal["status"]; cursor?: string },
): Promise<{ items: ReviewItem[]; nextCursor: string | null }> {
  const page = await listProposals(ctx, {
    status: options.status,
    cursor: options.cursor,
    limit: 50,
    onInvalidCursor: "restart",
  });
  const items: ReviewItem[] = [];
  const standing = page.proposals.some((proposal) => proposal.op === "instructions")
    ? await currentInstructions(ctx)
    : null;
  for (const proposal of page.proposals) {
    const memory = proposal.memoryId ? await getMemory(ctx, proposal.memoryId).catch(() => null) : null;
    items.push({
      id: proposal.id,
      op: proposal.op,
      kind: proposal.kind,
      content: proposal.content,
      text: proposal.text ?? "",
      validFrom: proposal.validFrom?.toISOString() ?? null,
      validTo: proposal.validTo?.toISOString() ?? null,
      quote: proposal.quote,
      reason: proposal.reason,
      actor: `${proposal.actor.type} ${proposal.actor.id}`,
      threadId: proposal.threadId,
      runId: proposal.runId,
      status: proposal.status,
      decisionReason: proposal.decisionReason,
      createdAt: proposal.createdAt.toISOString(),
      current: memory
        ? {
            id: memory.id,
            text: memory.text,
            version: memory.version,
            status: memory.status,
            stale: proposal.expectedVersion !== null && proposal.expectedVersion !== memory.version,
          }
        : null,
      ...(proposal.op === "instructions"
        ? {
            instructions: {
              text: standing?.text ?? "",
              version: standing?.version ?? 0,
              stale: (proposal.expectedVersion ?? 0) !== (standing?.version ?? 0),
            },
          }
        : {}),
    });
  }
  return { items, nextCursor: page.nextCursor };
}

const decisionInput = z.strictObject({
  id: z.uuid(),
  decision: z.enum(["approve", "reject"]),
  // Checked by the core as the proposal's kind demands (approveProposal), like any other write of it.
  content: z.unknown().optional(),
  reason: z.string().trim().max(LIMITS.reasonChars).optional(),
});

/** Approve (optionally as edited) or reject one proposal; a conflict comes back with its message. */
export function decideProposal(ctx: MemoryContext, raw: unknown): Promise<ActionResult<{ memoryId?: string }>> {
  return settleAction(async () => {
    const input = parseInput(decisionInput, raw);
    if (input.decision === "reject") {
      await rejectProposal(ctx, input.id, input.reason ? { reason: input.reason } : {});
      return {};
    }
    const approved = await approveProposal(
      ctx,
      input.id,
      input.content === undefined ? {} : { content: input.content },
    );
    return "memory" in approved ? { memoryId: approved.memory.id } : {};
  });
}

const bulkInput = z.strictObject({
  ids: z.array(z.uuid()).min(1).max(LIMITS.bulkIds),
  decision: z.enum(["approve", "reject"]),
  reason: z.string().trim().max(LIMITS.reasonChars).optional(),
});

/** Decides each proposal on its own: one that conflicts is skipped and named, the others still go through. */
export function decideProposals(
  ctx: MemoryContext,
  raw: unknown,
): Promise<ActionResult<{ decided: number; skipped: Array<{ id: string; message: string }> }>> {
  return settleAction(async () => {
    const input = parseInput(bulkInput, raw);
    const skipped: Array<{ id: string; message: string }> = [];
    let decided = 0;
    for (const id of new Set(input.ids)) {
      try {
        if (input.decision === "approve") await approveProposal(ctx, id);
        else await rejectProposal(ctx, id, input.reason ? { reason: input.reason } : {});
        decided += 1;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        skipped.push({ id, message: error.message });
      }
    }
    return { decided, skipped };
  });
}

const ruleInput = z.strictObject({ text: z.string(), terms: z.string().max(LIMITS.ruleTermsTextChars).optional() });

/** A rule from the console form: terms are comma-separated. */
export function addRule(ctx: MemoryContext, raw: unknown): Promise<ActionResult> {
  return settleAction(async () => {
    const input = parseInput(ruleInput, raw);
    const terms = (input.terms ?? "")
      .split(",")
      .map((term) => term.trim())
      .filter(Boolean);
    await createRule(ctx, { text: input.text, terms });
    return {};
  });
}

export function removeRule(ctx: MemoryContext, raw: unknown): Promise<ActionResult> {
  return settleAction(async () => {
    await deleteRule(ctx, parseInput(z.string().max(100), raw));
    return {};
  });
}

export function setReviewMode(ctx: MemoryContext, raw: unknown): Promise<ActionResult> {
  return settleAction(async () => {
    await updateSettings(ctx, { review: parseInput(z.enum(REVIEW_MODES), raw) });
    return {};
  });
}

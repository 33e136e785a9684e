// Deciding a proposal: approving it writes what it proposes through the store (or the instructions), as the user;
// rejecting it keeps it, so the same fact is not proposed again.

import { and, eq } from "drizzle-orm";
import { memoryProposals } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import { AppError, parseInput } from "@/lib/errors";
import {
  type ApproveProposalInput,
  approveProposalInputSchema,
  LIMITS,
  type RejectProposalInput,
  rejectProposalInputSchema,
} from "@/lib/memory/contract";
import {
  MemoryConflictError,
  type MemoryContext,
  type Provenance,
  relativeNamespace,
  withUnit,
} from "@/lib/memory/core";
import {
  changeInstructions,
  InstructionsConflictError,
  type InstructionVersion,
  type serializeInstructions,
} from "@/lib/memory/procedural";
import {
  createMemoryOnce,
  deleteMemory,
  getMemory,
  type Memory,
  mergeMemories,
  serializeMemory,
  supersedeMemory,
  updateMemory,
} from "@/lib/memory/store";
import { proposalEvent, recordWebhookEvents } from "@/lib/memory/webhooks";
import {
  type Proposal,
  ProposalConflictError,
  ProposalNotFoundError,
  type ProposalRow,
  serializeProposal,
  toProposal,
  UUID,
} from "./proposals";

/**
 * Writes what the proposal says through the store, as the approving user with the proposal's provenance (thread,
 * message, quote, run), optionally with edited content. A memory changed since the proposal was made is a conflict
 * carrying what stands now; nothing is written then.
 */
export type ApprovedMemory = { proposal: Proposal; memory: Memory };
export type ApprovedProposal = ApprovedMemory | { proposal: Proposal; instructions: InstructionVersion };

export async function approveProposal(
  ctx: MemoryContext,
  id: string,
  raw: ApproveProposalInput = {},
): Promise<ApprovedProposal> {
  const input = parseInput(approveProposalInputSchema, raw);
  return withUnit(ctx, async (tx): Promise<ApprovedProposal> => {
    const proposal = await lockPending(tx, id);
    if (proposal.op === "instructions") return approveInstructions(tx, proposal, input.content);
    if (proposal.op === "delete" && input.content !== undefined) {
      throw new AppError("unprocessable", "A delete has no content to edit.", [
        { path: ["content"], message: "not allowed for a delete" },
      ]);
    }
    const writer: MemoryContext = {
      ...tx,
      provenance: {
        source: proposal.sourceType as Provenance["source"],
        ...(proposal.threadId ? { threadId: proposal.threadId } : {}),
        ...(proposal.messageId ? { messageId: proposal.messageId } : {}),
        ...(proposal.quote ? { quote: proposal.quote } : {}),
        ...(proposal.runId ? { runId: proposal.runId } : {}),
      },
    };
    const edited = input.content !== undefined;
    const reason = `${edited ? "approved as edited" : "approved"} in review: ${proposal.reason ?? "proposed"}`.slice(
      0,
      LIMITS.reasonChars,
    );
    // A merge's content is the memories it folds in and the wording it gives the one that stands; an edit is a wording.
    const content =
      proposal.op === "merge"
        ? { ...(proposal.content as object), ...(edited ? { content: input.content } : {}) }
        : edited
          ? input.content
          : proposal.content;
    let memory: Memory;
    try {
      memory = await writeApproved(writer, proposal, content, reason);
    } catch (error) {
      if (!(error instanceof MemoryConflictError)) throw error;
      const current = await getMemory(tx, proposal.memoryId as string);
      throw new ProposalConflictError(
        `The memory changed since this was proposed (proposed against version ${proposal.expectedVersion}, now version ${current.version}${current.status === "deleted" ? ", deleted" : ""}): review it again.`,
        { proposal: serializeProposal(toProposal(ctx, proposal)), memory: serializeMemory(current) },
      );
    }
    const decided = await decide(tx, proposal, "approved", null, memory.id);
    return { proposal: decided, memory };
  });
}

/** Writes what an approved proposal says through the store (any op but instructions). */
async function writeApproved(
  writer: MemoryContext,
  proposal: ProposalRow,
  content: unknown,
  reason: string,
): Promise<Memory> {
  if (proposal.op === "insert") {
    return (
      await createMemoryOnce(writer, {
        kind: proposal.kind ?? "memory",
        content,
        namespace: relativeNamespace(writer.principal.root, proposal.namespace),
        ...(proposal.validFrom ? { validFrom: proposal.validFrom } : {}),
        ...(proposal.validTo ? { validTo: proposal.validTo } : {}),
        reason,
      })
    ).memory;
  } else if (proposal.op === "update" && proposal.validFrom) {
    // The fact changed in the world: approving supersedes, as applying the op would have.
    return (
      await supersedeMemory(writer, proposal.memoryId as string, {
        content,
        validFrom: proposal.validFrom,
        expectedVersion: proposal.expectedVersion ?? undefined,
        reason,
      })
    ).created;
  } else if (proposal.op === "update") {
    return await updateMemory(writer, proposal.memoryId as string, {
      content,
      // A consolidation run's held supersede or expire: the fact stopped holding then.
      ...(proposal.validTo ? { validTo: proposal.validTo } : {}),
      expectedVersion: proposal.expectedVersion ?? undefined,
      reason,
    });
  } else if (proposal.op === "merge") {
    return (
      await mergeMemories(writer, {
        into: { id: proposal.memoryId as string, version: proposal.expectedVersion ?? 0 },
        from: mergedOf(content),
        content: (content as { content?: unknown }).content,
        reason,
      })
    ).into;
  } else {
    return await deleteMemory(writer, proposal.memoryId as string, {
      expectedVersion: proposal.expectedVersion ?? undefined,
      reason,
    });
  }
}

/** The memories a merge proposal folds in, as it recorded them (ids and versions). */
function mergedOf(content: unknown): Array<{ id: string; version: number }> {
  const from = (content as { from?: unknown } | null)?.from;
  if (!Array.isArray(from)) return [];
  return from.flatMap((entry) => {
    const { id, version } = (entry ?? {}) as { id?: unknown; version?: unknown };
    return typeof id === "string" && UUID.test(id) && Number.isInteger(version)
      ? [{ id, version: version as number }]
      : [];
  });
}

/**
 * Makes the proposed instructions (or the user's edit of them) the next version, credited to the optimizer that
 * proposed them with its feedback and run. Instructions changed since it was proposed are a conflict.
 */
async function approveInstructions(
  ctx: MemoryContext,
  proposal: ProposalRow,
  edited: unknown,
): Promise<{ proposal: Proposal; instructions: InstructionVersion }> {
  if (edited !== undefined && typeof edited !== "string") {
    throw new AppError("unprocessable", "Edited instructions are a text.", [
      { path: ["content"], message: "a string" },
    ]);
  }
  const grounds = (proposal.content ?? {}) as { feedbackIds?: unknown };
  const feedbackIds = Array.isArray(grounds.feedbackIds)
    ? grounds.feedbackIds.filter((value): value is string => typeof value === "string" && UUID.test(value))
    : [];
  const reason = `${edited !== undefined ? "approved as edited" : "approved"} in review: ${proposal.reason ?? "proposed"}`;
  let instructions: InstructionVersion;
  try {
    instructions = await changeInstructions(ctx, {
      text: typeof edited === "string" ? edited.trim() : (proposal.text ?? ""),
      expectedVersion: proposal.expectedVersion ?? 0,
      changedBy: { type: "optimizer", id: proposal.actorId },
      reason,
      feedbackIds,
      ...(proposal.runId && UUID.test(proposal.runId) ? { runId: proposal.runId } : {}),
      proposalId: proposal.id,
    });
  } catch (error) {
    if (!(error instanceof InstructionsConflictError)) throw error;
    const body = error.extras.body as { instructions: ReturnType<typeof serializeInstructions> | null } | undefined;
    throw new ProposalConflictError(
      `Your instructions changed since this was proposed (proposed against version ${proposal.expectedVersion ?? 0}, now version ${body?.instructions?.version ?? 0}): review it again.`,
      { proposal: serializeProposal(toProposal(ctx, proposal)), ...body },
    );
  }
  return { proposal: await decide(ctx, proposal, "approved", null), instructions };
}

export async function rejectProposal(ctx: MemoryContext, id: string, raw: RejectProposalInput = {}): Promise<Proposal> {
  const input = parseInput(rejectProposalInputSchema, raw);
  return withUnit(ctx, async (tx) => decide(tx, await lockPending(tx, id), "rejected", input.reason ?? null));
}

async function lockPending(ctx: MemoryContext, id: string): Promise<ProposalRow> {
  if (!UUID.test(id)) throw new ProposalNotFoundError(id);
  const [row] = await asUser(ctx, async (unit) => {
    await unit.serializeUserWrites();
    return unit.db
      .select()
      .from(memoryProposals)
      .where(and(eq(memoryProposals.userId, ctx.principal.userId), eq(memoryProposals.id, id)))
      .for("update");
  });
  if (!row) throw new ProposalNotFoundError(id);
  if (row.status !== "pending") {
    throw new ProposalConflictError(`This proposal was already ${row.status}.`, {
      proposal: serializeProposal(toProposal(ctx, row)),
    });
  }
  return row;
}

async function decide(
  ctx: MemoryContext,
  row: ProposalRow,
  status: "approved" | "rejected",
  decisionReason: string | null,
  memoryId: string | null = row.memoryId,
): Promise<Proposal> {
  const [updated] = await asUser(ctx, async (unit) => {
    const rows = await unit.db
      .update(memoryProposals)
      .set({ status, decisionReason, memoryId, decidedAt: ctx.clock() })
      .where(and(eq(memoryProposals.userId, row.userId), eq(memoryProposals.id, row.id)))
      .returning();
    const event = proposalEvent(
      status === "approved" ? "proposal.approved" : "proposal.rejected",
      rows[0] as ProposalRow,
      ctx.clock(),
    );
    await recordWebhookEvents(unit, [event], ctx.scheduleWebhookDeliveries);
    return rows;
  });
  return toProposal(ctx, updated as ProposalRow);
}

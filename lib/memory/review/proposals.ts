import { and, count, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { afterPosition, decodeCursor, type KeysetOrder, keysetPage, orderBy } from "@/lib/db/keyset";
import { memoryProposals } from "@/lib/db/schema";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { AppError, parseInput } from "@/lib/errors";
import { LIMITS, PROPOSAL_STATUSES, type ProposalJson } from "@/lib/memory/contract";
import { type Actor, type MemoryContext, type Provenance, relativeNamespace } from "@/lib/memory/core";
import { writerColumns } from "@/lib/memory/store";
import { proposalEvent, recordWebhookEvents } from "@/lib/memory/webhooks";

export type ProposalRow = typeof memoryProposals.$inferSelect;
export type ProposalOp = ProposalRow["op"];
export type ProposalStatus = ProposalRow["status"];

export interface Proposal {
  id: string;
  op: ProposalOp;
  memoryId: string | null;
  expectedVersion: number | null;
  /** Relative to the caller's root. */
  namespace: string[];
  kind: string | null;
  content: unknown;
  text: string | null;
  contentHash: string | null;
  /** The dates the op gave the fact: an insert's, or the `validFrom` of an update that supersedes. */
  validFrom: Date | null;
  validTo: Date | null;
  quote: string | null;
  threadId: string | null;
  messageId: string | null;
  runId: string | null;
  reason: string;
  actor: Actor;
  status: ProposalStatus;
  decisionReason: string | null;
  createdAt: Date;
  decidedAt: Date | null;
}

/** What a writer proposes instead of writing: the change, and the text it would write (or remove). */
export interface ProposedChange {
  op: ProposalOp;
  memoryId?: string;
  expectedVersion?: number;
  /** Absolute. */
  namespace: readonly string[];
  kind?: string;
  content?: unknown;
  text?: string;
  contentHash?: string;
  validFrom?: Date;
  validTo?: Date;
  reason: string;
  provenance?: Provenance;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ORDER: KeysetOrder = { name: "proposals", direction: "desc" };

export class ProposalNotFoundError extends AppError {
  constructor(id: string) {
    super("not_found", `No proposal with id ${id}.`);
    this.name = "ProposalNotFoundError";
  }
}

/** Approving or rejecting what can no longer be decided as proposed; `current` is what stands now. */
export class ProposalConflictError extends AppError {
  constructor(message: string, current: { proposal: ProposalJson; memory?: unknown }) {
    super("conflict", message, [], { body: current });
    this.name = "ProposalConflictError";
  }
}

export const listProposalsInputSchema = z.strictObject({
  status: z.enum(PROPOSAL_STATUSES).optional(),
  threadId: z.string().min(1).max(LIMITS.idChars).optional(),
  limit: z.number().int().min(1).max(LIMITS.listPage).default(50),
  cursor: z.string().max(LIMITS.cursorChars).optional(),
  onInvalidCursor: z.enum(["reject", "restart"]).default("reject"),
});
export type ListProposalsInput = z.input<typeof listProposalsInputSchema>;

/** Records a pending proposal in the context's unit of work, with the context's writer and provenance. */
export async function propose(ctx: MemoryContext, change: ProposedChange): Promise<Proposal> {
  const [row] = await asUser(ctx, async (unit) => {
    const inserted = await unit.db
      .insert(memoryProposals)
      .values({
        userId: ctx.principal.userId,
        op: change.op,
        memoryId: change.memoryId ?? null,
        expectedVersion: change.expectedVersion ?? null,
        namespace: [...change.namespace],
        kind: change.kind ?? null,
        content: change.content ?? null,
        text: change.text ?? null,
        contentHash: change.contentHash ?? null,
        validFrom: change.validFrom ?? null,
        validTo: change.validTo ?? null,
        reason: change.reason,
        ...writerColumns(ctx, change.provenance),
        status: "pending",
        createdAt: ctx.clock(),
      })
      .returning();
    const created = inserted[0] as ProposalRow;
    await recordWebhookEvents(
      unit,
      [proposalEvent("proposal.created", created, ctx.clock())],
      ctx.scheduleWebhookDeliveries,
    );
    return inserted;
  });
  return toProposal(ctx, row as ProposalRow);
}

/** The caller's proposals, newest first, keyset-paged; optionally one status or one thread. */
export async function listProposals(ctx: MemoryContext, raw: ListProposalsInput = {}) {
  const input = parseInput(listProposalsInputSchema, raw);
  const position = decodeCursor(input.cursor, ORDER, { onInvalid: input.onInvalidCursor, idSchema: z.uuid() });
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select()
      .from(memoryProposals)
      .where(
        and(
          eq(memoryProposals.userId, ctx.principal.userId),
          input.status ? eq(memoryProposals.status, input.status) : undefined,
          input.threadId ? eq(memoryProposals.threadId, input.threadId) : undefined,
          afterPosition(memoryProposals.createdAt, memoryProposals.id, ORDER, position),
        ),
      )
      .orderBy(...orderBy(memoryProposals.createdAt, memoryProposals.id, ORDER))
      .limit(input.limit + 1),
  );
  const { page, nextCursor } = keysetPage(rows, input.limit, ORDER, (row) => ({ at: row.createdAt, id: row.id }));
  return { proposals: page.map((row) => toProposal(ctx, row)), nextCursor };
}

export async function getProposal(ctx: MemoryContext, id: string): Promise<Proposal> {
  if (!UUID.test(id)) throw new ProposalNotFoundError(id);
  const [row] = await asUser(ctx, ({ db }) =>
    db
      .select()
      .from(memoryProposals)
      .where(and(eq(memoryProposals.userId, ctx.principal.userId), eq(memoryProposals.id, id))),
  );
  if (!row) throw new ProposalNotFoundError(id);
  return toProposal(ctx, row);
}

/**
 * The pending proposal to change the instructions from `expectedVersion` to exactly `text`, if there is one, with
 * `feedbackIds` added to its grounds: a later optimizer pass that reaches the same change (new feedback saying the
 * same) leaves it as the one to decide on, and the version it becomes credits all the feedback that asked for it.
 */
export async function addToPendingInstructionsChange(
  ctx: MemoryContext,
  expectedVersion: number,
  text: string,
  feedbackIds: readonly string[],
): Promise<Proposal | null> {
  return asUser(ctx, async ({ db }) => {
    const [row] = await db
      .select()
      .from(memoryProposals)
      .where(
        and(
          eq(memoryProposals.userId, ctx.principal.userId),
          eq(memoryProposals.status, "pending"),
          eq(memoryProposals.op, "instructions"),
          eq(memoryProposals.expectedVersion, expectedVersion),
          eq(memoryProposals.text, text),
        ),
      )
      .limit(1)
      .for("update");
    if (!row) return null;
    const grounds = (row.content ?? {}) as { feedbackIds?: unknown };
    const known = Array.isArray(grounds.feedbackIds) ? grounds.feedbackIds : [];
    const added = feedbackIds.filter((id) => !known.includes(id));
    if (added.length === 0) return toProposal(ctx, row);
    const [grounded] = await db
      .update(memoryProposals)
      .set({ content: { ...grounds, feedbackIds: [...known, ...added] } })
      .where(and(eq(memoryProposals.userId, ctx.principal.userId), eq(memoryProposals.id, row.id)))
      .returning();
    return toProposal(ctx, grounded ?? row);
  });
}

/** Pending proposals per extraction run and per source message of one thread (the chat shows them per exchange). */
export async function pendingProposalCounts(ctx: MemoryContext, threadId: string) {
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select({ runId: memoryProposals.runId, messageId: memoryProposals.messageId, n: count() })
      .from(memoryProposals)
      .where(
        and(
          eq(memoryProposals.userId, ctx.principal.userId),
          eq(memoryProposals.threadId, threadId),
          eq(memoryProposals.status, "pending"),
        ),
      )
      .groupBy(memoryProposals.runId, memoryProposals.messageId),
  );
  return rows.map((row) => ({ runId: row.runId, messageId: row.messageId, count: Number(row.n) }));
}

export async function countPendingProposals(ctx: MemoryContext): Promise<number> {
  const [row] = await asUser(ctx, ({ db }) =>
    db
      .select({ n: count() })
      .from(memoryProposals)
      .where(and(eq(memoryProposals.userId, ctx.principal.userId), eq(memoryProposals.status, "pending"))),
  );
  return Number(row?.n ?? 0);
}

/**
 * A rejected insert with this content (same hash, or text this similar) or a pending proposal of it: the same fact
 * is suppressed like a tombstone, and is not proposed twice. Returns the proposal, a pending one first.
 */
export async function matchingProposal(
  ctx: MemoryContext,
  unit: UnitOfWork,
  content: { text: string; contentHash: string },
  similarity: number,
): Promise<Proposal | null> {
  const [row] = await unit.db
    .select()
    .from(memoryProposals)
    .where(sql`${memoryProposals.userId} = ${unit.userId}
      and ${memoryProposals.op} in ('insert', 'update')
      and (${memoryProposals.status} = 'pending'
           or (${memoryProposals.status} = 'rejected' and ${memoryProposals.op} = 'insert'))
      and (${memoryProposals.contentHash} = ${content.contentHash}
           or (${memoryProposals.text} is not null and similarity(${memoryProposals.text}, ${content.text}) >= ${similarity}))`)
    .orderBy(sql`(${memoryProposals.status} = 'pending') desc`, sql`${memoryProposals.decidedAt} desc`)
    .limit(1);
  return row ? toProposal(ctx, row) : null;
}

export function toProposal(ctx: MemoryContext, row: ProposalRow): Proposal {
  return {
    id: row.id,
    op: row.op,
    memoryId: row.memoryId,
    expectedVersion: row.expectedVersion,
    namespace: relativeNamespace(ctx.principal.root, row.namespace),
    kind: row.kind,
    content: row.content,
    text: row.text,
    contentHash: row.contentHash,
    validFrom: row.validFrom,
    validTo: row.validTo,
    quote: row.quote,
    threadId: row.threadId,
    messageId: row.messageId,
    runId: row.runId,
    reason: row.reason ?? "",
    actor: { type: row.actorType as Actor["type"], id: row.actorId },
    status: row.status,
    decisionReason: row.decisionReason,
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
  };
}

export function serializeProposal(proposal: Proposal): ProposalJson {
  const given = <T>(value: T | null) => (value === null ? undefined : value);
  const json: ProposalJson = {
    id: proposal.id,
    op: proposal.op,
    memoryId: given(proposal.memoryId),
    expectedVersion: given(proposal.expectedVersion),
    namespace: proposal.namespace,
    kind: given(proposal.kind),
    content: given(proposal.content),
    text: given(proposal.text),
    validFrom: proposal.validFrom?.toISOString(),
    validTo: proposal.validTo?.toISOString(),
    quote: given(proposal.quote),
    threadId: given(proposal.threadId),
    messageId: given(proposal.messageId),
    runId: given(proposal.runId),
    reason: proposal.reason,
    actor: proposal.actor,
    status: proposal.status,
    decisionReason: given(proposal.decisionReason),
    createdAt: proposal.createdAt.toISOString(),
    decidedAt: proposal.decidedAt?.toISOString(),
  };
  return Object.fromEntries(Object.entries(json).filter(([, value]) => value !== undefined)) as ProposalJson;
}

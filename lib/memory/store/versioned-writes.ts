// How a memory row changes: every change writes the row at its next version and appends that version (and its
// webhook event), here; vectors are asked for once the write commits.

import { and, eq, type SQL } from "drizzle-orm";
import { BULK_PLANNING, DEFAULT_PLANNING, valuesInsert } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { memories, memoryVersions } from "@/lib/db/schema";
import type { UnitOfWork } from "@/lib/db/unit-of-work";
import {
  type Actor,
  canEmbed,
  type MemoryContext,
  type PreparedContent,
  type Provenance,
  sourceTypeFor,
} from "@/lib/memory/core";
import { MEMORY_OP_EVENTS, purgedMemoryData, recordWebhookEvents, type WebhookEvent } from "@/lib/memory/webhooks";
import { COUNTED_TOGETHER_FROM } from "./bulk-statistics";
import { type MemoryRow, toMemory } from "./rows";
import { serializeMemory } from "./serialize";
import type { MemoryOp, MemoryStatus } from "./types";

/** Rows per multi-row INSERT: about 20 parameters each keeps a statement far below PostgreSQL's 65,535. */
export const INSERT_CHUNK = 500;

export async function lockRow(tx: Db, where: SQL): Promise<MemoryRow | undefined> {
  const [row] = await tx.select().from(memories).where(where).for("update");
  return row;
}

interface ContentChange {
  kind: string;
  /** Undefined keeps the current content. */
  content: PreparedContent | undefined;
  metadata: Record<string, unknown>;
  pinned: boolean;
  validFrom: Date | null;
  validTo: Date | null;
  reason: string | undefined;
  provenance: Provenance | undefined;
  /**
   * The row keeps its source (the words it came from), and only the version records the writer's: a merge's wording
   * is made of the memories' own words (lib/memory/store/merge.ts).
   */
  keepSource?: boolean;
}

export async function applyContentChange(
  ctx: MemoryContext,
  unit: UnitOfWork,
  current: MemoryRow,
  change: ContentChange,
): Promise<MemoryRow> {
  const tx = unit.db;
  const now = ctx.clock();
  const writer = writerColumns(ctx, change.provenance);
  const [updated] = await tx
    .update(memories)
    .set({
      kind: change.kind,
      ...(change.content ? contentColumns(change.content) : {}),
      metadata: change.metadata,
      pinned: change.pinned,
      validFrom: change.validFrom,
      validTo: change.validTo,
      // Who changed it last is always the writer: a person's edit stays theirs (lib/memory/review/consolidate.ts).
      ...(change.keepSource ? { actorType: writer.actorType, actorId: writer.actorId } : writer),
      version: current.version + 1,
      updatedAt: now,
    })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  await appendVersion(ctx, unit, updated as MemoryRow, "update", change.reason, change.keepSource ? writer : undefined);
  return updated as MemoryRow;
}

/** A tombstone made active again (purged ones too: their old content is gone, new content follows). */
export async function revive(ctx: MemoryContext, unit: UnitOfWork, current: MemoryRow): Promise<MemoryRow> {
  const tx = unit.db;
  const [updated] = await tx
    .update(memories)
    .set({ status: "active", purgedAt: null, version: current.version + 1, updatedAt: ctx.clock() })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  await appendVersion(ctx, unit, updated as MemoryRow, "restore", "written again after deletion");
  return updated as MemoryRow;
}

export async function applyStatusChange(
  ctx: MemoryContext,
  unit: UnitOfWork,
  current: MemoryRow,
  op: "delete" | "restore",
  options: { reason?: string; provenance?: Provenance },
): Promise<MemoryRow> {
  const tx = unit.db;
  const now = ctx.clock();
  const status: MemoryStatus = op === "delete" ? "deleted" : "active";
  const [updated] = await tx
    .update(memories)
    .set({ status, version: current.version + 1, updatedAt: now })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  await appendVersion(ctx, unit, updated as MemoryRow, op, options.reason, writerColumns(ctx, options.provenance));
  return updated as MemoryRow;
}

type WriterColumns = Pick<
  MemoryRow,
  "sourceType" | "threadId" | "messageId" | "quote" | "runId" | "actorType" | "actorId"
>;

/** The context's provenance overlaid with the write's own, as columns. */
export function writerColumns(ctx: MemoryContext, own: Provenance | undefined): WriterColumns {
  const provenance = { ...ctx.provenance, ...own };
  return {
    sourceType: sourceTypeFor(ctx.actor, provenance),
    threadId: provenance.threadId ?? null,
    messageId: provenance.messageId ?? null,
    quote: provenance.quote ?? null,
    runId: provenance.runId ?? null,
    actorType: ctx.actor.type,
    actorId: ctx.actor.id,
  };
}

export function contentColumns(content: PreparedContent) {
  return { content: content.content, text: content.text, contentHash: content.contentHash };
}

/**
 * Appends the version row for `row` (already at its new version). Writer columns default to the row's own. Every
 * change of a memory passes here or through appendVersions, so this is where its webhook event is recorded: once,
 * for every surface.
 */
export async function appendVersion(
  ctx: MemoryContext,
  unit: UnitOfWork,
  row: MemoryRow,
  op: MemoryOp,
  reason: string | undefined,
  writer: WriterColumns = row,
): Promise<void> {
  await unit.db.insert(memoryVersions).values(versionValues(row, op, ctx.actor, reason, writer));
  await recordWebhookEvents(unit, [memoryEvent(ctx, row, op)], ctx.scheduleWebhookDeliveries);
}

/** One multi-row insert per chunk for rows written together (a batch create), writer columns from each row. */
export async function appendVersions(
  ctx: MemoryContext,
  unit: UnitOfWork,
  entries: ReadonlyArray<{ row: MemoryRow; reason: string | undefined }>,
  op: MemoryOp,
): Promise<void> {
  for (let from = 0; from < entries.length; from += INSERT_CHUNK) {
    const part = entries.slice(from, from + INSERT_CHUNK);
    const insert = valuesInsert(
      memoryVersions,
      part.map(({ row, reason }) => versionValues(row, op, ctx.actor, reason, row)),
    );
    const bulk = part.length >= COUNTED_TOGETHER_FROM;
    if (bulk) await unit.setLocal(BULK_PLANNING);
    await unit.query(insert.text, insert.parameters);
    if (bulk) await unit.setLocal(DEFAULT_PLANNING);
    await recordWebhookEvents(
      unit,
      part.map(({ row }) => memoryEvent(ctx, row, op)),
      ctx.scheduleWebhookDeliveries,
    );
  }
}

/** A memory change as a webhook event: the memory as the API shows it, or only its id once purged. */
function memoryEvent(ctx: MemoryContext, row: MemoryRow, op: MemoryOp): WebhookEvent {
  const data = op === "purge" ? purgedMemoryData(row.id, row.version) : serializeMemory(toMemory(ctx, row));
  return { type: MEMORY_OP_EVENTS[op], memoryId: row.id, data, at: row.updatedAt };
}

function versionValues(row: MemoryRow, op: MemoryOp, actor: Actor, reason: string | undefined, writer: WriterColumns) {
  return {
    userId: row.userId,
    memoryId: row.id,
    version: row.version,
    op,
    kind: row.kind,
    content: row.content,
    text: row.text,
    contentHash: row.contentHash,
    status: row.status,
    metadata: row.metadata,
    mergedInto: row.mergedInto,
    mergedFrom: row.mergedFrom,
    pinned: row.pinned,
    validFrom: row.validFrom,
    validTo: row.validTo,
    actorType: actor.type,
    actorId: actor.id,
    reason: reason ?? null,
    sourceType: writer.sourceType,
    threadId: writer.threadId,
    messageId: writer.messageId,
    quote: writer.quote,
    runId: writer.runId,
    createdAt: row.updatedAt,
  };
}

/** Vectors are a provider call: computed by a queued job once the write has committed, never while it holds locks. */
export function embedOnCommit(ctx: MemoryContext, unit: UnitOfWork, rows: readonly MemoryRow[]): void {
  const schedule = ctx.scheduleEmbedding;
  if (!schedule || !canEmbed(ctx) || rows.length === 0) return;
  unit.afterCommit(() => schedule(ctx.principal.userId));
}

import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { asUser, asUserDatabase, type Tx } from "@/lib/db/principal";
import { memories, memoryVersions } from "@/lib/db/schema";
import { type Actor, type MemoryContext, type Provenance, sourceTypeFor } from "./context";
import { decodeCursor, encodeCursor } from "./cursor";
import { embedAfterWrite } from "./embeddings";
import { MemoryConflictError, MemoryNotFoundError } from "./errors";
import { filterConditions, memoryFiltersSchema, ownedUnder } from "./filters";
import { defaultKinds, type KindRegistry, type PreparedContent, prepareContent } from "./kinds";
import { absoluteNamespace, relativeNamespace, textArray, validateNamespace } from "./namespace";
import { parseInput } from "./parse";
import { eraseCopies } from "./purge-copies";
import type { Memory, MemoryOp, MemoryStatus, MemoryVersion } from "./types";

type MemoryRow = typeof memories.$inferSelect;
type VersionRow = typeof memoryVersions.$inferSelect;

const MAX_KEY_LENGTH = 256;
/** Rows per multi-row INSERT: about 20 parameters each keeps a statement far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const provenanceSchema = z.strictObject({
  source: z.enum(["chat", "extraction", "console", "api"]).optional(),
  threadId: z.string().min(1).max(200).optional(),
  messageId: z.string().min(1).max(200).optional(),
  quote: z.string().min(1).max(8_000).optional(),
  runId: z.string().min(1).max(200).optional(),
});
const metadataSchema = z
  .record(z.string().min(1).max(200), z.json())
  .refine((metadata) => JSON.stringify(metadata).length <= 8_192, "metadata is limited to 8 KB");
const reasonSchema = z.string().max(2_000).optional();
const relativeNamespaceSchema = z.array(z.string()).transform((segments) => validateNamespace(segments));
const writeOptions = {
  reason: reasonSchema,
  provenance: provenanceSchema.optional(),
  /** Restricts the write to memories under this relative namespace (e.g. the tool's namespace). */
  within: relativeNamespaceSchema.optional(),
  expectedVersion: z.number().int().positive().optional(),
};

export const createMemoryInputSchema = z.strictObject({
  content: z.unknown(),
  kind: z.string().min(1).max(64).optional(),
  namespace: relativeNamespaceSchema.optional(),
  key: z.string().min(1).max(MAX_KEY_LENGTH).optional(),
  metadata: metadataSchema.optional(),
  reason: reasonSchema,
  provenance: provenanceSchema.optional(),
});
export type CreateMemoryInput = z.input<typeof createMemoryInputSchema>;

export const updateMemoryInputSchema = z
  .strictObject({
    content: z.unknown().optional(),
    kind: z.string().min(1).max(64).optional(),
    metadata: metadataSchema.optional(),
    ...writeOptions,
  })
  .refine(
    (input) => input.content !== undefined || input.kind !== undefined || input.metadata !== undefined,
    "an update changes content, kind or metadata",
  );
export type UpdateMemoryInput = z.input<typeof updateMemoryInputSchema>;

export const writeOptionsSchema = z.strictObject(writeOptions);
export type WriteOptions = z.input<typeof writeOptionsSchema>;

export const listMemoriesInputSchema = memoryFiltersSchema.extend({
  limit: z.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});
export type ListMemoriesInput = z.input<typeof listMemoriesInputSchema>;

export const listNamespacesInputSchema = z.strictObject({
  prefix: relativeNamespaceSchema.optional(),
  suffix: relativeNamespaceSchema.optional(),
  maxDepth: z.number().int().min(1).max(64).optional(),
  limit: z.number().int().min(1).max(1_000).default(100),
  offset: z.number().int().min(0).default(0),
});
export type ListNamespacesInput = z.input<typeof listNamespacesInputSchema>;

const kindsOf = (ctx: MemoryContext): KindRegistry => ctx.kinds ?? defaultKinds;

/** Writes one memory (one transaction, version 1). For a kind with a fixed key (profile) an existing one is updated. */
export async function createMemory(ctx: MemoryContext, raw: CreateMemoryInput): Promise<Memory> {
  const [memory] = await createMemories(ctx, [raw]);
  return memory as Memory;
}

/** Writes several memories in one transaction (one multi-row insert per table) and embeds them in one batched call. */
export async function createMemories(ctx: MemoryContext, raws: readonly CreateMemoryInput[]): Promise<Memory[]> {
  const inputs = raws.map((raw) => parseInput(createMemoryInputSchema, raw));
  const prepared = inputs.map((input) => {
    const kind = input.kind ?? "memory";
    const definition = kindsOf(ctx).get(kind);
    return {
      input,
      kind,
      singletonKey: definition.singletonKey,
      content: prepareContent(kindsOf(ctx), kind, input.content),
      namespace: absoluteNamespace(ctx.principal.root, input.namespace ?? []),
    };
  });
  const rows = await asUser(ctx.database.db, ctx.principal.userId, async (tx) => {
    const candidates = prepared.map((item) => {
      const now = ctx.clock();
      const id = crypto.randomUUID();
      return {
        item,
        row: {
          userId: ctx.principal.userId,
          id,
          namespace: item.namespace,
          key: item.singletonKey ?? item.input.key ?? id,
          kind: item.kind,
          ...contentColumns(item.content),
          status: "active" as const,
          version: 1,
          metadata: item.input.metadata ?? {},
          ...writerColumns(ctx, item.input.provenance),
          createdAt: now,
          updatedAt: now,
        },
      };
    });
    const inserted = new Map<string, MemoryRow>();
    for (let from = 0; from < candidates.length; from += INSERT_CHUNK) {
      const part = candidates.slice(from, from + INSERT_CHUNK);
      const rows = await tx
        .insert(memories)
        .values(part.map((candidate) => candidate.row))
        .onConflictDoNothing()
        .returning();
      for (const row of rows) inserted.set(row.id, row);
    }
    await appendVersions(
      tx,
      candidates.flatMap(({ item, row }) => {
        const written = inserted.get(row.id);
        return written ? [{ row: written, reason: item.input.reason }] : [];
      }),
      "create",
      ctx.actor,
    );
    const written: MemoryRow[] = [];
    for (const { item, row } of candidates) {
      const created = inserted.get(row.id);
      if (created) {
        written.push(created);
        continue;
      }
      if (!item.singletonKey) {
        throw new MemoryConflictError(`A memory with key "${item.input.key}" already exists in this namespace.`);
      }
      const existing = await lockRow(
        tx,
        and(
          eq(memories.userId, ctx.principal.userId),
          sql`${memories.namespace} = ${textArray(item.namespace)}`,
          eq(memories.key, item.singletonKey),
        ) as SQL,
      );
      if (!existing) throw new MemoryConflictError("The memory changed concurrently; retry.");
      // Writing the one-per-namespace document again after it was deleted (or purged) brings it back.
      const live = existing.status === "deleted" ? await revive(ctx, tx, existing) : existing;
      written.push(
        await applyContentChange(ctx, tx, live, {
          kind: item.kind,
          content: item.content,
          metadata: item.input.metadata ?? existing.metadata,
          reason: item.input.reason,
          provenance: item.input.provenance,
        }),
      );
    }
    return written;
  });
  await embedAfterWrite(ctx, rows.map(embeddingTarget));
  return rows.map((row) => toMemory(ctx, row));
}

/** One memory of the caller's, including tombstones. Absent and foreign ids both raise MemoryNotFoundError. */
export async function getMemory(ctx: MemoryContext, id: string, options: { within?: string[] } = {}): Promise<Memory> {
  const within = validateNamespace(options.within ?? []);
  if (!UUID.test(id)) throw new MemoryNotFoundError(id);
  const [row] = await asUser(ctx.database.db, ctx.principal.userId, (tx) =>
    tx
      .select()
      .from(memories)
      .where(and(ownedUnder(ctx, within), eq(memories.id, id))),
  );
  if (!row) throw new MemoryNotFoundError(id);
  return toMemory(ctx, row);
}

/** The caller's memory at exactly this relative namespace and key (tombstones included), or null. */
export async function findMemoryByKey(
  ctx: MemoryContext,
  namespace: readonly string[],
  key: string,
): Promise<Memory | null> {
  const absolute = absoluteNamespace(ctx.principal.root, namespace);
  const [row] = await asUser(ctx.database.db, ctx.principal.userId, (tx) =>
    tx
      .select()
      .from(memories)
      .where(
        and(
          eq(memories.userId, ctx.principal.userId),
          sql`${memories.namespace} = ${textArray(absolute)}`,
          eq(memories.key, key),
        ),
      ),
  );
  return row ? toMemory(ctx, row) : null;
}

export interface MemoryPage {
  memories: Memory[];
  nextCursor: string | null;
}

/** Newest first (by updated_at, then id), paged with an opaque keyset cursor. */
export async function listMemories(ctx: MemoryContext, raw: ListMemoriesInput = {}): Promise<MemoryPage> {
  const { limit, cursor, ...filters } = parseInput(listMemoriesInputSchema, raw);
  const conditions = [filterConditions(ctx, filters)];
  if (cursor) {
    const position = decodeCursor(cursor);
    conditions.push(
      sql`(${memories.updatedAt}, ${memories.id}) < (${position.updatedAt}::timestamptz, ${position.id}::uuid)`,
    );
  }
  const rows = await asUser(ctx.database.db, ctx.principal.userId, (tx) =>
    tx
      .select()
      .from(memories)
      .where(and(...conditions))
      .orderBy(desc(memories.updatedAt), desc(memories.id))
      .limit(limit + 1),
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    memories: page.map((row) => toMemory(ctx, row)),
    nextCursor:
      rows.length > limit && last ? encodeCursor({ updatedAt: last.updatedAt.toISOString(), id: last.id }) : null,
  };
}

/** Changes content, kind and/or metadata. A stale `expectedVersion` raises MemoryConflictError. */
export function updateMemory(ctx: MemoryContext, id: string, raw: UpdateMemoryInput): Promise<Memory> {
  return changeMemory(ctx, id, raw, { reviveDeleted: false });
}

/**
 * A store's "put" on an existing key: like updateMemory, but a deleted or purged memory comes back with the new
 * content in the same transaction (the restore and the update both appear in its history).
 */
export function replaceMemory(ctx: MemoryContext, id: string, raw: UpdateMemoryInput): Promise<Memory> {
  return changeMemory(ctx, id, raw, { reviveDeleted: true });
}

async function changeMemory(
  ctx: MemoryContext,
  id: string,
  raw: UpdateMemoryInput,
  options: { reviveDeleted: boolean },
): Promise<Memory> {
  const input = parseInput(updateMemoryInputSchema, raw);
  const row = await writeLocked(ctx, id, input, async (tx, found) => {
    if (found.status === "deleted" && !options.reviveDeleted) {
      throw new MemoryConflictError("The memory is deleted; restore it before updating.", found.version);
    }
    const current = found.status === "deleted" ? await revive(ctx, tx, found) : found;
    const kind = input.kind ?? current.kind;
    const changesContent = input.content !== undefined || kind !== current.kind;
    return applyContentChange(ctx, tx, current, {
      kind,
      content: changesContent ? prepareContent(kindsOf(ctx), kind, input.content ?? current.content) : undefined,
      metadata: input.metadata ?? current.metadata,
      reason: input.reason,
      provenance: input.provenance,
    });
  });
  await embedAfterWrite(ctx, [embeddingTarget(row)]);
  return toMemory(ctx, row);
}

/** Soft delete: the row stays as a tombstone (status `deleted`) so the fact can be recognised and suppressed. */
export async function deleteMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  const row = await writeLocked(ctx, id, options, (tx, current) =>
    current.status === "deleted" ? current : applyStatusChange(ctx, tx, current, "delete", options),
  );
  return toMemory(ctx, row);
}

export async function restoreMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  const row = await writeLocked(ctx, id, options, (tx, current) => {
    if (current.purgedAt) throw new MemoryConflictError("A purged memory cannot be restored.", current.version);
    return current.status === "active" ? current : applyStatusChange(ctx, tx, current, "restore", options);
  });
  return toMemory(ctx, row);
}

/**
 * Erases a memory's content everywhere: the memory row, every version row and every embedding. What remains is ids,
 * key, kind, timestamps, ops, actors and the content hash (so a restatement of the fact can still be suppressed).
 * The caller's reason is not stored, since it tends to restate the fact being erased.
 */
export async function purgeMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  const row = await writeLocked(ctx, id, options, async (tx, current) => {
    if (current.purgedAt) return current;
    const now = ctx.clock();
    const earlier = await tx
      .select({ text: memoryVersions.text })
      .from(memoryVersions)
      .where(and(eq(memoryVersions.userId, current.userId), eq(memoryVersions.memoryId, current.id)));
    const texts = [current.text, ...earlier.map((version) => version.text)].filter((text): text is string => !!text);
    await eraseCopies(tx, current.userId, current.id, texts);
    const erased = { content: null, text: null, metadata: {}, quote: null };
    const [updated] = await tx
      .update(memories)
      .set({ ...erased, status: "deleted", purgedAt: now, version: current.version + 1, updatedAt: now })
      .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
      .returning();
    await tx
      .update(memoryVersions)
      .set({ ...erased, reason: null })
      .where(and(eq(memoryVersions.userId, current.userId), eq(memoryVersions.memoryId, current.id)));
    if (ctx.database.vector) {
      await tx.execute(
        sql`delete from memory_embeddings where user_id = ${current.userId}::uuid and memory_id = ${current.id}::uuid`,
      );
    }
    const purged = updated as MemoryRow;
    await appendVersion(tx, purged, "purge", ctx.actor, undefined, {
      ...writerColumns(ctx, options.provenance),
      quote: null,
    });
    return purged;
  });
  return toMemory(ctx, row);
}

/** Every version of one of the caller's memories, oldest first. */
export async function memoryHistory(
  ctx: MemoryContext,
  id: string,
  options: { within?: string[] } = {},
): Promise<MemoryVersion[]> {
  const memory = await getMemory(ctx, id, options);
  return (await memoryHistories(ctx, [memory.id])).get(memory.id) ?? [];
}

/** The versions of several of the caller's memories in one query, oldest first per memory; foreign ids get none. */
export async function memoryHistories(
  ctx: MemoryContext,
  ids: readonly string[],
): Promise<Map<string, MemoryVersion[]>> {
  const histories = new Map<string, MemoryVersion[]>();
  if (ids.length === 0) return histories;
  const rows = await asUser(ctx.database.db, ctx.principal.userId, (tx) =>
    tx
      .select()
      .from(memoryVersions)
      .where(and(eq(memoryVersions.userId, ctx.principal.userId), inArray(memoryVersions.memoryId, [...ids])))
      .orderBy(asc(memoryVersions.memoryId), asc(memoryVersions.version)),
  );
  for (const row of rows) {
    const versions = histories.get(row.memoryId);
    if (versions) versions.push(toVersion(row));
    else histories.set(row.memoryId, [toVersion(row)]);
  }
  return histories;
}

/**
 * Distinct namespaces (relative to the root) that hold active memories, optionally under `prefix`, ending in
 * `suffix`, and truncated to `maxDepth` segments.
 */
export async function listNamespaces(ctx: MemoryContext, raw: ListNamespacesInput = {}): Promise<string[][]> {
  const input = parseInput(listNamespacesInputSchema, raw);
  const rootDepth = ctx.principal.root.length;
  const conditions = [
    ownedUnder(ctx, input.prefix),
    sql`${memories.status} = 'active'`,
    sql`cardinality(${memories.namespace}) > ${sql.raw(String(rootDepth))}`,
  ];
  if (input.suffix?.length) {
    const n = sql.raw(String(input.suffix.length));
    conditions.push(
      sql`${memories.namespace}[cardinality(${memories.namespace}) - ${n} + 1 : cardinality(${memories.namespace})] = ${textArray(input.suffix)}`,
    );
  }
  const depth =
    input.maxDepth === undefined
      ? sql`cardinality(${memories.namespace})`
      : sql.raw(String(rootDepth + input.maxDepth));
  const rows = await asUserDatabase(ctx.database, ctx.principal.userId, (tx) =>
    tx.rows<{ namespace: string[] }>(sql`
      select distinct ${memories.namespace}[1 : ${depth}] as namespace
      from ${memories}
      where ${and(...conditions)}
      order by namespace
      limit ${input.limit} offset ${input.offset}`),
  );
  return rows.map((row) => relativeNamespace(ctx.principal.root, row.namespace));
}

/* ---------- internals ---------- */

async function lockRow(tx: Tx, where: SQL): Promise<MemoryRow | undefined> {
  const [row] = await tx.select().from(memories).where(where).for("update");
  return row;
}

/**
 * Locks the caller's row (SELECT … FOR UPDATE) for the whole transaction, checks `expectedVersion`, then lets
 * `change` write. Concurrent writers queue on the lock, so none can overwrite another's version unseen.
 */
async function writeLocked(
  ctx: MemoryContext,
  id: string,
  options: { within?: string[]; expectedVersion?: number },
  change: (tx: Tx, current: MemoryRow) => Promise<MemoryRow> | MemoryRow,
): Promise<MemoryRow> {
  if (!UUID.test(id)) throw new MemoryNotFoundError(id);
  return asUser(ctx.database.db, ctx.principal.userId, async (tx) => {
    const current = await lockRow(tx, and(ownedUnder(ctx, options.within), eq(memories.id, id)) as SQL);
    if (!current) throw new MemoryNotFoundError(id);
    if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
      throw new MemoryConflictError(
        `Expected version ${options.expectedVersion}, but the memory is at version ${current.version}.`,
        current.version,
      );
    }
    return change(tx, current);
  });
}

interface ContentChange {
  kind: string;
  /** Undefined keeps the current content. */
  content: PreparedContent | undefined;
  metadata: Record<string, unknown>;
  reason: string | undefined;
  provenance: Provenance | undefined;
}

async function applyContentChange(
  ctx: MemoryContext,
  tx: Tx,
  current: MemoryRow,
  change: ContentChange,
): Promise<MemoryRow> {
  const now = ctx.clock();
  const [updated] = await tx
    .update(memories)
    .set({
      kind: change.kind,
      ...(change.content ? contentColumns(change.content) : {}),
      metadata: change.metadata,
      ...writerColumns(ctx, change.provenance),
      version: current.version + 1,
      updatedAt: now,
    })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  await appendVersion(tx, updated as MemoryRow, "update", ctx.actor, change.reason);
  return updated as MemoryRow;
}

/** A tombstone made active again (purged ones too: their old content is gone, new content follows). */
async function revive(ctx: MemoryContext, tx: Tx, current: MemoryRow): Promise<MemoryRow> {
  const [updated] = await tx
    .update(memories)
    .set({ status: "active", purgedAt: null, version: current.version + 1, updatedAt: ctx.clock() })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  await appendVersion(tx, updated as MemoryRow, "restore", ctx.actor, "written again after deletion");
  return updated as MemoryRow;
}

async function applyStatusChange(
  ctx: MemoryContext,
  tx: Tx,
  current: MemoryRow,
  op: "delete" | "restore",
  options: { reason?: string; provenance?: Provenance },
): Promise<MemoryRow> {
  const now = ctx.clock();
  const status: MemoryStatus = op === "delete" ? "deleted" : "active";
  const [updated] = await tx
    .update(memories)
    .set({ status, version: current.version + 1, updatedAt: now })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  await appendVersion(tx, updated as MemoryRow, op, ctx.actor, options.reason, writerColumns(ctx, options.provenance));
  return updated as MemoryRow;
}

type WriterColumns = Pick<
  MemoryRow,
  "sourceType" | "threadId" | "messageId" | "quote" | "runId" | "actorType" | "actorId"
>;

/** The context's provenance overlaid with the write's own, as columns. */
function writerColumns(ctx: MemoryContext, own: Provenance | undefined): WriterColumns {
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

function contentColumns(content: PreparedContent) {
  return { content: content.content, text: content.text, contentHash: content.contentHash };
}

/** Appends the version row for `row` (already at its new version). Writer columns default to the row's own. */
async function appendVersion(
  tx: Tx,
  row: MemoryRow,
  op: MemoryOp,
  actor: Actor,
  reason: string | undefined,
  writer: WriterColumns = row,
): Promise<void> {
  await tx.insert(memoryVersions).values(versionValues(row, op, actor, reason, writer));
}

/** One multi-row insert per chunk for rows written together (a batch create), writer columns from each row. */
async function appendVersions(
  tx: Tx,
  entries: ReadonlyArray<{ row: MemoryRow; reason: string | undefined }>,
  op: MemoryOp,
  actor: Actor,
): Promise<void> {
  for (let from = 0; from < entries.length; from += INSERT_CHUNK) {
    const part = entries.slice(from, from + INSERT_CHUNK);
    await tx.insert(memoryVersions).values(part.map(({ row, reason }) => versionValues(row, op, actor, reason, row)));
  }
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

const embeddingTarget = (row: MemoryRow) => ({ id: row.id, text: row.text ?? "", contentHash: row.contentHash });

function source(row: Pick<MemoryRow, "sourceType" | "threadId" | "messageId" | "quote" | "runId">) {
  return {
    type: row.sourceType as Memory["source"]["type"],
    ...(row.threadId ? { threadId: row.threadId } : {}),
    ...(row.messageId ? { messageId: row.messageId } : {}),
    ...(row.quote ? { quote: row.quote } : {}),
    ...(row.runId ? { runId: row.runId } : {}),
  };
}

export function toMemory(ctx: MemoryContext, row: MemoryRow): Memory {
  return {
    id: row.id,
    namespace: relativeNamespace(ctx.principal.root, row.namespace),
    key: row.key,
    kind: row.kind,
    content: row.content ?? null,
    text: row.text ?? "",
    status: row.status,
    version: row.version,
    metadata: row.metadata,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    source: source(row),
    actor: { type: row.actorType as Actor["type"], id: row.actorId },
    contentHash: row.contentHash,
    purgedAt: row.purgedAt,
  };
}

function toVersion(row: VersionRow): MemoryVersion {
  return {
    memoryId: row.memoryId,
    version: row.version,
    op: row.op,
    kind: row.kind,
    content: row.content ?? null,
    text: row.text ?? "",
    status: row.status,
    metadata: row.metadata,
    actor: { type: row.actorType as Actor["type"], id: row.actorId },
    reason: row.reason,
    source: source(row),
    contentHash: row.contentHash,
    createdAt: row.createdAt,
  };
}

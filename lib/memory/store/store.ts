import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { BULK_PLANNING, DEFAULT_PLANNING, rowsFromDriver, valuesInsert } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import {
  afterPosition,
  decodeCursor,
  type InvalidCursorPolicy,
  type KeysetOrder,
  keysetPage,
  orderBy,
} from "@/lib/db/keyset";
import { memories, memoryEmbeddings, memoryVersions } from "@/lib/db/schema";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { AppError, parseInput, ValidationError } from "@/lib/errors";
import {
  type CreateMemoryInput,
  createMemoryInputSchema,
  kindInput,
  LIMITS,
  memoryFiltersSchema,
  metadataInput,
  namespaceInput,
  provenanceInput,
  reasonInput,
  validateNamespace,
  validityValue,
} from "@/lib/memory/contract";
import {
  type Actor,
  absoluteNamespace,
  canEmbed,
  defaultKinds,
  factKey,
  type KindRegistry,
  MemoryConflictError,
  type MemoryContext,
  MemoryNotFoundError,
  type PreparedContent,
  type Provenance,
  prepareContent,
  QuotaExceededError,
  relativeNamespace,
  sourceTypeFor,
  textArray,
} from "@/lib/memory/core";
import { MEMORY_OP_EVENTS, purgedMemoryData, recordWebhookEvents, type WebhookEvent } from "@/lib/memory/webhooks";
import { COUNTED_TOGETHER_FROM, insertCountedTogether } from "./bulk-statistics";
import { filterConditions, ownedUnder } from "./filters";
import { eraseCopies } from "./purge-copies";
import { brokenRule, enforceRules, RuleViolationError, rulesThatBind } from "./rules";
import { serializeMemory } from "./serialize";
import type { Memory, MemoryOp, MemoryStatus, MemoryVersion } from "./types";

type MemoryRow = typeof memories.$inferSelect;
type VersionRow = typeof memoryVersions.$inferSelect;

/** Rows per multi-row INSERT: about 20 parameters each keeps a statement far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const writeOptions = {
  reason: reasonInput.optional(),
  provenance: provenanceInput.optional(),
  /** Restricts the write to memories under this relative namespace (e.g. the tool's namespace). */
  within: namespaceInput.optional(),
  expectedVersion: z.number().int().positive().optional(),
};

export const updateMemoryInputSchema = z
  .strictObject({
    content: z.unknown().optional(),
    kind: kindInput.optional(),
    metadata: metadataInput.optional(),
    pinned: z.boolean().optional(),
    validFrom: validityValue.optional(),
    validTo: validityValue.optional(),
    ...writeOptions,
  })
  .refine(
    (input) =>
      input.content !== undefined ||
      input.kind !== undefined ||
      input.metadata !== undefined ||
      input.pinned !== undefined ||
      input.validFrom !== undefined ||
      input.validTo !== undefined,
    "an update changes content, kind, metadata, pinned, validFrom or validTo",
  );
export type UpdateMemoryInput = z.input<typeof updateMemoryInputSchema>;

export const writeOptionsSchema = z.strictObject(writeOptions);
export type WriteOptions = z.input<typeof writeOptionsSchema>;

/** List orders: by last change or by creation, newest or oldest first. */
export const MEMORY_SORTS = ["updated_desc", "updated_asc", "created_desc", "created_asc"] as const;
export type MemorySort = (typeof MEMORY_SORTS)[number];

const SORT_ORDERS: Record<MemorySort, KeysetOrder & { field: "updatedAt" | "createdAt" }> = {
  updated_desc: { name: "updated_desc", field: "updatedAt", direction: "desc" },
  updated_asc: { name: "updated_asc", field: "updatedAt", direction: "asc" },
  created_desc: { name: "created_desc", field: "createdAt", direction: "desc" },
  created_asc: { name: "created_asc", field: "createdAt", direction: "asc" },
};

export const listMemoriesInputSchema = memoryFiltersSchema.extend({
  limit: z.number().int().min(1).max(LIMITS.listPage).default(50),
  cursor: z.string().max(500).optional(),
  sort: z.enum(MEMORY_SORTS).default("updated_desc"),
  /** `restart`: a cursor this list did not make means the first page (console URLs); `reject` (default): 422. */
  onInvalidCursor: z.enum(["reject", "restart"] satisfies InvalidCursorPolicy[]).default("reject"),
});
export type ListMemoriesInput = z.input<typeof listMemoriesInputSchema>;

export const listNamespacesInputSchema = z.strictObject({
  prefix: namespaceInput.optional(),
  suffix: namespaceInput.optional(),
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

/** Writes several memories in one transaction (one multi-row insert per table); the first invalid one fails them all. */
export async function createMemories(ctx: MemoryContext, raws: readonly CreateMemoryInput[]): Promise<Memory[]> {
  const { created, rejected } = await writeNewMemories(ctx, raws, "throw");
  if (rejected[0]) throw rejected[0].error;
  return created.map((entry) => entry.memory);
}

/**
 * Writes a memory unless the user already has the same fact: an active memory of the same kind in the same namespace
 * whose text differs at most in case, spacing and punctuation ("The user plays the cello." / "the user plays the
 * cello"). Then nothing is written and that memory is returned. What agents and the manager use, so a model that
 * repeats a create (or sends the same create twice at once) leaves one memory.
 */
export async function createMemoryOnce(
  ctx: MemoryContext,
  raw: CreateMemoryInput,
): Promise<{ memory: Memory; created: boolean }> {
  const { created, rejected, existing } = await writeNewMemories(ctx, [raw], "throw", "reuse");
  if (rejected[0]) throw rejected[0].error;
  if (existing[0]) return { memory: existing[0].memory, created: false };
  return { memory: created[0]!.memory, created: true };
}

/**
 * The user's active memory already stating what `raw` would write (see createMemoryOnce), or null: what a proposal
 * is checked against, so review never asks about a fact the user already has.
 */
export async function existingFact(ctx: MemoryContext, raw: CreateMemoryInput): Promise<Memory | null> {
  const input = parseInput(createMemoryInputSchema, raw);
  const kind = input.kind ?? "memory";
  if (kindsOf(ctx).get(kind).singletonKey) return null;
  const item = {
    kind,
    namespace: absoluteNamespace(ctx.principal.root, input.namespace ?? []),
    content: prepareContent(kindsOf(ctx), kind, input.content),
  };
  const row = await asUser(ctx, (unit) => sameFact(unit, item));
  return row ? toMemory(ctx, row) : null;
}

export interface BatchOutcome {
  /** The memories written, in input order, each with its position in the input. */
  created: Array<{ index: number; memory: Memory }>;
  /** The items not written, by position, with why. */
  rejected: Array<{ index: number; error: AppError }>;
}

/**
 * A batch write: every valid item is written in one transaction, and each invalid one (a schema or limit broken, a
 * key already taken, also by an earlier item of the batch) is reported by its position and writes nothing.
 */
export function createMemoryBatch(ctx: MemoryContext, raws: readonly CreateMemoryInput[]): Promise<BatchOutcome> {
  return writeNewMemories(ctx, raws, "report");
}

async function writeNewMemories(
  ctx: MemoryContext,
  raws: readonly CreateMemoryInput[],
  onItemError: "throw" | "report",
  onSameFact: "write" | "reuse" = "write",
): Promise<BatchOutcome & { existing: Array<{ index: number; memory: Memory }> }> {
  const rejected: BatchOutcome["rejected"] = [];
  const reject = (index: number, error: unknown) => {
    if (onItemError === "throw" || !(error instanceof AppError)) throw error;
    rejected.push({ index, error });
  };
  const prepared = raws.flatMap((raw, index) => {
    try {
      const input = parseInput(createMemoryInputSchema, raw);
      checkValidity(input.validFrom ?? null, input.validTo ?? null);
      const kind = input.kind ?? "memory";
      const definition = kindsOf(ctx).get(kind);
      return [
        {
          index,
          input,
          kind,
          singletonKey: definition.singletonKey,
          content: prepareContent(kindsOf(ctx), kind, input.content),
          namespace: absoluteNamespace(ctx.principal.root, input.namespace ?? []),
        },
      ];
    } catch (error) {
      reject(index, error);
      return [];
    }
  });
  const existing: Array<{ index: number; memory: Memory }> = [];
  const created = await asUser(ctx, async (unit) => {
    const tx = unit.db;
    await unit.serializeUserWrites();
    const rules = await rulesThatBind(ctx, unit);
    const fresh: typeof prepared = [];
    for (const item of prepared) {
      const broken = brokenRule(rules, item.content.text);
      if (broken) {
        reject(item.index, new RuleViolationError(broken.rule, broken.term));
        continue;
      }
      const same = onSameFact === "reuse" && !item.singletonKey ? await sameFact(unit, item) : undefined;
      if (same) existing.push({ index: item.index, memory: toMemory(ctx, same) });
      else fresh.push(item);
    }
    const candidates = fresh.map((item) => {
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
          pinned: item.input.pinned ?? false,
          validFrom: item.input.validFrom ?? null,
          validTo: item.input.validTo ?? null,
          ...writerColumns(ctx, item.input.provenance),
          createdAt: now,
          updatedAt: now,
        },
      };
    });
    await admitActivated(ctx, unit, await newlyActive(ctx, unit, candidates));
    const inserted = new Map<string, MemoryRow>();
    for (let from = 0; from < candidates.length; from += INSERT_CHUNK) {
      const part = candidates.slice(from, from + INSERT_CHUNK);
      const insert = valuesInsert(
        memories,
        part.map((candidate) => candidate.row),
        "on conflict do nothing returning *",
      );
      const rows = await insertCountedTogether(
        unit,
        part.length,
        async () => rowsFromDriver(memories, await unit.query(insert.text, insert.parameters)),
        (row) => row.id,
      );
      for (const row of rows) inserted.set(row.id, row);
    }
    await appendVersions(
      ctx,
      unit,
      candidates.flatMap(({ item, row }) => {
        const written = inserted.get(row.id);
        return written ? [{ row: written, reason: item.input.reason }] : [];
      }),
      "create",
    );
    const written: Array<{ index: number; row: MemoryRow }> = [];
    for (const { item, row } of candidates) {
      const created = inserted.get(row.id);
      if (created) {
        written.push({ index: item.index, row: created });
        continue;
      }
      if (!item.singletonKey) {
        reject(
          item.index,
          new MemoryConflictError(`A memory with key "${item.input.key}" already exists in this namespace.`),
        );
        continue;
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
      const live = existing.status === "deleted" ? await revive(ctx, unit, existing) : existing;
      const updated = await applyContentChange(ctx, unit, live, {
        kind: item.kind,
        content: item.content,
        metadata: item.input.metadata ?? existing.metadata,
        pinned: item.input.pinned ?? existing.pinned,
        validFrom: item.input.validFrom === undefined ? existing.validFrom : item.input.validFrom,
        validTo: item.input.validTo === undefined ? existing.validTo : item.input.validTo,
        reason: item.input.reason,
        provenance: item.input.provenance,
      });
      written.push({ index: item.index, row: updated });
    }
    embedOnCommit(
      ctx,
      unit,
      written.map((entry) => entry.row),
    );
    return written.map((entry) => ({ index: entry.index, memory: toMemory(ctx, entry.row) }));
  });
  return { created, rejected: rejected.sort((a, b) => a.index - b.index), existing };
}

/** The user's active memory stating the same fact as `item` (see createMemoryOnce), under the writer lock. */
async function sameFact(
  unit: UnitOfWork,
  item: { kind: string; namespace: string[]; content: PreparedContent },
): Promise<MemoryRow | undefined> {
  const wanted = factKey(item.content.text);
  // Equal facts have equal full-text lexemes, so the index narrows the candidates; the hash covers stop-word texts.
  const candidates = await unit.db
    .select()
    .from(memories)
    .where(
      and(
        eq(memories.userId, unit.userId),
        eq(memories.status, "active"),
        eq(memories.kind, item.kind),
        sql`${memories.namespace} = ${textArray(item.namespace)}`,
        sql`(${memories.contentHash} = ${item.content.contentHash}
             or ${memories.fts} @@ plainto_tsquery('english', ${item.content.text}))`,
      ),
    )
    .orderBy(desc(memories.updatedAt))
    .limit(50);
  return candidates.find((row) => row.text !== null && factKey(row.text) === wanted);
}

/** One memory of the caller's, including tombstones. Absent and foreign ids both raise MemoryNotFoundError. */
export async function getMemory(ctx: MemoryContext, id: string, options: { within?: string[] } = {}): Promise<Memory> {
  const within = validateNamespace(options.within ?? []);
  if (!UUID.test(id)) throw new MemoryNotFoundError(id);
  const [row] = await asUser(ctx, ({ db }) =>
    db
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
  const [row] = await asUser(ctx, ({ db }) =>
    db
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

/** The caller's memories matching the filters in the chosen order (newest change first by default), keyset-paged. */
export async function listMemories(ctx: MemoryContext, raw: ListMemoriesInput = {}): Promise<MemoryPage> {
  const { limit, cursor, sort, onInvalidCursor, ...filters } = parseInput(listMemoriesInputSchema, raw);
  const order = SORT_ORDERS[sort];
  const column = memories[order.field];
  const position = decodeCursor(cursor, order, { onInvalid: onInvalidCursor, idSchema: z.uuid() });
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select()
      .from(memories)
      .where(and(filterConditions(ctx, filters), afterPosition(column, memories.id, order, position)))
      .orderBy(...orderBy(column, memories.id, order))
      .limit(limit + 1),
  );
  const { page, nextCursor } = keysetPage(rows, limit, order, (row) => ({ at: row[order.field], id: row.id }));
  return { memories: page.map((row) => toMemory(ctx, row)), nextCursor };
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
  return writeLocked(ctx, id, input, async (_tx, found, unit) => {
    if (found.status === "deleted" && !options.reviveDeleted) {
      throw new MemoryConflictError("The memory is deleted; restore it before updating.", found.version);
    }
    const kind = input.kind ?? found.kind;
    const changesContent = input.content !== undefined || kind !== found.kind;
    const pinned = input.pinned ?? found.pinned;
    const validFrom = input.validFrom === undefined ? found.validFrom : input.validFrom;
    const validTo = input.validTo === undefined ? found.validTo : input.validTo;
    checkValidity(validFrom, validTo);
    const changesFlags =
      pinned !== found.pinned || !sameInstant(validFrom, found.validFrom) || !sameInstant(validTo, found.validTo);
    // Pinning what is pinned (or re-sending the same dates) is no change and leaves no version behind.
    if (!changesContent && input.metadata === undefined && !changesFlags && found.status === "active") return found;
    if (found.status === "deleted") await admitActivated(ctx, unit, 1);
    const current = found.status === "deleted" ? await revive(ctx, unit, found) : found;
    const onlyPin = !changesContent && input.metadata === undefined && pinned !== found.pinned;
    const content = changesContent ? prepareContent(kindsOf(ctx), kind, input.content ?? current.content) : undefined;
    if (content) await enforceRules(ctx, unit, [content.text]);
    const updated = await applyContentChange(ctx, unit, current, {
      kind,
      content,
      metadata: input.metadata ?? current.metadata,
      pinned,
      validFrom,
      validTo,
      reason: input.reason ?? (onlyPin ? (pinned ? "pinned" : "unpinned") : undefined),
      provenance: input.provenance,
    });
    if (changesContent) embedOnCommit(ctx, unit, [updated]);
    return updated;
  });
}

/** Soft delete: the row stays as a tombstone (status `deleted`) so the fact can be recognised and suppressed. */
export async function deleteMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  return writeLocked(ctx, id, options, (_tx, current, unit) =>
    current.status === "deleted" ? current : applyStatusChange(ctx, unit, current, "delete", options),
  );
}

export async function restoreMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  return writeLocked(ctx, id, options, async (_tx, current, unit) => {
    if (current.purgedAt) throw new MemoryConflictError("A purged memory cannot be restored.", current.version);
    if (current.status === "active") return current;
    await admitActivated(ctx, unit, 1);
    return applyStatusChange(ctx, unit, current, "restore", options);
  });
}

/**
 * Erases a memory's content everywhere: the memory row, every version row and every embedding. What remains is ids,
 * key, kind, timestamps, ops, actors and the content hash (so a restatement of the fact can still be suppressed).
 * The caller's reason is not stored, since it tends to restate the fact being erased.
 */
export async function purgeMemory(ctx: MemoryContext, id: string, raw: WriteOptions = {}): Promise<Memory> {
  const options = parseInput(writeOptionsSchema, raw);
  return writeLocked(ctx, id, options, async (tx, current, unit) => {
    if (current.purgedAt) return current;
    const now = ctx.clock();
    const earlier = await tx
      .select({ text: memoryVersions.text, content: memoryVersions.content })
      .from(memoryVersions)
      .where(and(eq(memoryVersions.userId, current.userId), eq(memoryVersions.memoryId, current.id)));
    const texts = [current.text, ...earlier.map((version) => version.text)].filter((text): text is string => !!text);
    const contents = [current.content, ...earlier.map((version) => version.content)].filter((value) => value != null);
    await eraseCopies(tx, current.userId, { memoryId: current.id, texts, contents, kinds: kindsOf(ctx) }, now);
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
      await tx
        .delete(memoryEmbeddings)
        .where(and(eq(memoryEmbeddings.userId, current.userId), eq(memoryEmbeddings.memoryId, current.id)));
    }
    const purged = updated as MemoryRow;
    await appendVersion(ctx, unit, purged, "purge", undefined, {
      ...writerColumns(ctx, options.provenance),
      quote: null,
    });
    return purged;
  });
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
  const rows = await asUser(ctx, ({ db }) =>
    db
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
  const rows = await asUser(ctx, (unit) =>
    unit.rows<{ namespace: string[] }>(sql`
      select distinct ${memories.namespace}[1 : ${depth}] as namespace
      from ${memories}
      where ${and(...conditions)}
      order by namespace
      limit ${input.limit} offset ${input.offset}`),
  );
  return rows.map((row) => relativeNamespace(ctx.principal.root, row.namespace));
}

/* ---------- internals ---------- */

/** A fact cannot stop holding before it started. */
function checkValidity(validFrom: Date | null, validTo: Date | null): void {
  if (validFrom && validTo && validTo.getTime() < validFrom.getTime()) {
    throw new ValidationError("Invalid input: validTo: is before validFrom.", [
      { path: ["validTo"], message: "is before validFrom" },
    ]);
  }
}

const sameInstant = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

async function lockRow(tx: Db, where: SQL): Promise<MemoryRow | undefined> {
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
  change: (tx: Db, current: MemoryRow, unit: UnitOfWork) => Promise<MemoryRow> | MemoryRow,
): Promise<Memory> {
  if (!UUID.test(id)) throw new MemoryNotFoundError(id);
  return asUser(ctx, async (unit) => {
    const tx = unit.db;
    await unit.serializeUserWrites();
    const current = await lockRow(tx, and(ownedUnder(ctx, options.within), eq(memories.id, id)) as SQL);
    if (!current) throw new MemoryNotFoundError(id);
    if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
      throw new MemoryConflictError(
        `Expected version ${options.expectedVersion}, but the memory is at version ${current.version}.`,
        current.version,
      );
    }
    return toMemory(ctx, await change(tx, current, unit));
  });
}

/**
 * Refuses a write that would make `adding` more memories active when the user would then hold more than their quota
 * (ctx.memoryQuota), before it writes anything: a store call may run inside a caller's unit of work (an extraction
 * run, a proposal's acceptance), which would keep rows written before a refusal. Counted inside the write's
 * transaction under the user's writer lock (serializeUserWrites, taken first by every writer), so two writers cannot
 * both take the last place; a write that adds nothing (an edit, a profile written again) passes even over a lowered
 * quota. The count is the user's memory_corpus row, which the statistics triggers keep at the number of active
 * memories (migration 0024): one row read by key, however many memories the user has.
 */
async function admitActivated(ctx: MemoryContext, unit: UnitOfWork, adding: number): Promise<void> {
  const quota = ctx.memoryQuota;
  if (quota === undefined || adding === 0) return;
  const [corpus] = await unit.rows<{ docs: number }>(
    sql`select docs from memory_corpus where user_id = ${unit.userId}::uuid`,
  );
  const active = Number(corpus?.docs ?? 0);
  if (active + adding <= quota) return;
  throw new QuotaExceededError(
    `Memory quota reached: an account may hold ${memoriesCount(quota)}; this one holds ${active.toLocaleString("en")}` +
      ` and this write would add ${adding.toLocaleString("en")}. Nothing was written. Delete or purge memories to make room.`,
  );
}

/**
 * How many of a create's rows would be active memories that are not now: each new row, except a one-per-namespace
 * document (profile) that is already active, which the create updates in place. A row whose key another memory
 * already holds is counted too (it is refused, and the batch that carries it is judged as sent).
 */
async function newlyActive(
  ctx: MemoryContext,
  unit: UnitOfWork,
  candidates: ReadonlyArray<{ item: { singletonKey?: string; namespace: string[] } }>,
): Promise<number> {
  if (ctx.memoryQuota === undefined) return 0;
  const slots = new Set<string>();
  let adding = 0;
  for (const { item } of candidates) {
    if (!item.singletonKey) {
      adding++;
      continue;
    }
    const slot = JSON.stringify([item.namespace, item.singletonKey]);
    if (slots.has(slot)) continue;
    slots.add(slot);
    const [standing] = await unit.db
      .select({ status: memories.status })
      .from(memories)
      .where(
        and(
          eq(memories.userId, unit.userId),
          sql`${memories.namespace} = ${textArray(item.namespace)}`,
          eq(memories.key, item.singletonKey),
        ),
      );
    if (standing?.status !== "active") adding++;
  }
  return adding;
}

const memoriesCount = (n: number) => `${n.toLocaleString("en")} active ${n === 1 ? "memory" : "memories"}`;

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
}

async function applyContentChange(
  ctx: MemoryContext,
  unit: UnitOfWork,
  current: MemoryRow,
  change: ContentChange,
): Promise<MemoryRow> {
  const tx = unit.db;
  const now = ctx.clock();
  const [updated] = await tx
    .update(memories)
    .set({
      kind: change.kind,
      ...(change.content ? contentColumns(change.content) : {}),
      metadata: change.metadata,
      pinned: change.pinned,
      validFrom: change.validFrom,
      validTo: change.validTo,
      ...writerColumns(ctx, change.provenance),
      version: current.version + 1,
      updatedAt: now,
    })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  await appendVersion(ctx, unit, updated as MemoryRow, "update", change.reason);
  return updated as MemoryRow;
}

/** A tombstone made active again (purged ones too: their old content is gone, new content follows). */
async function revive(ctx: MemoryContext, unit: UnitOfWork, current: MemoryRow): Promise<MemoryRow> {
  const tx = unit.db;
  const [updated] = await tx
    .update(memories)
    .set({ status: "active", purgedAt: null, version: current.version + 1, updatedAt: ctx.clock() })
    .where(and(eq(memories.userId, current.userId), eq(memories.id, current.id)))
    .returning();
  await appendVersion(ctx, unit, updated as MemoryRow, "restore", "written again after deletion");
  return updated as MemoryRow;
}

async function applyStatusChange(
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

/**
 * Appends the version row for `row` (already at its new version). Writer columns default to the row's own. Every
 * change of a memory passes here or through appendVersions, so this is where its webhook event is recorded: once,
 * for every surface.
 */
async function appendVersion(
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
async function appendVersions(
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
function embedOnCommit(ctx: MemoryContext, unit: UnitOfWork, rows: readonly MemoryRow[]): void {
  const schedule = ctx.scheduleEmbedding;
  if (!schedule || !canEmbed(ctx) || rows.length === 0) return;
  unit.afterCommit(() => schedule(ctx.principal.userId));
}

/**
 * A write's source as the API shows it. Deleting a chat erases the message id and quote of what came from it
 * (eraseThreadWords in ./purge-copies.ts); a chat or extraction source left with only the thread says so.
 */
function source(row: Pick<MemoryRow, "sourceType" | "threadId" | "messageId" | "quote" | "runId">) {
  const fromChat = row.sourceType === "chat" || row.sourceType === "extraction";
  return {
    type: row.sourceType as Memory["source"]["type"],
    ...(row.threadId ? { threadId: row.threadId } : {}),
    ...(fromChat && row.threadId && !row.messageId && !row.quote ? { threadDeleted: true as const } : {}),
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
    pinned: row.pinned,
    validFrom: row.validFrom,
    validTo: row.validTo,
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
    pinned: row.pinned,
    validFrom: row.validFrom,
    validTo: row.validTo,
    actor: { type: row.actorType as Actor["type"], id: row.actorId },
    reason: row.reason,
    source: source(row),
    contentHash: row.contentHash,
    createdAt: row.createdAt,
  };
}

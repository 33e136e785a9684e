import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  afterPosition,
  decodeCursor,
  decodeKeyCursor,
  type InvalidCursorPolicy,
  type KeysetOrder,
  keyedPage,
  keysetPage,
  orderBy,
} from "@/lib/db/keyset";
import { memories, memoryVersions } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import { parseInput } from "@/lib/errors";
import { LIMITS, memoryFiltersSchema, namespaceInput, validateNamespace } from "@/lib/memory/contract";
import {
  absoluteNamespace,
  type MemoryContext,
  MemoryNotFoundError,
  relativeNamespace,
  textArray,
} from "@/lib/memory/core";
import { filterConditions, ownedUnder } from "./filters";
import { toMemory, toVersion, UUID } from "./rows";
import type { Memory, MemoryVersion } from "./types";

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
  cursor: z.string().max(LIMITS.cursorChars).optional(),
  sort: z.enum(MEMORY_SORTS).default("updated_desc"),
  /** `restart`: a cursor this list did not make means the first page (console URLs); `reject` (default): 422. */
  onInvalidCursor: z.enum(["reject", "restart"] satisfies InvalidCursorPolicy[]).default("reject"),
});
export type ListMemoriesInput = z.input<typeof listMemoriesInputSchema>;

export const listNamespacesInputSchema = z.strictObject({
  prefix: namespaceInput.optional(),
  suffix: namespaceInput.optional(),
  maxDepth: z.number().int().min(1).max(LIMITS.namespaceListDepth).optional(),
  limit: z.number().int().min(1).max(LIMITS.namespacePage).default(100),
  cursor: z.string().max(LIMITS.namespaceCursorChars).optional(),
});
export type ListNamespacesInput = z.input<typeof listNamespacesInputSchema>;

const NAMESPACE_ORDER: KeysetOrder = { name: "namespaces", direction: "asc" };

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
 * `suffix`, and truncated to `maxDepth` segments; in order, keyset-paged by the namespace itself.
 */
export async function listNamespaces(
  ctx: MemoryContext,
  raw: ListNamespacesInput = {},
): Promise<{ namespaces: string[][]; nextCursor: string | null }> {
  const input = parseInput(listNamespacesInputSchema, raw);
  const after = decodeKeyCursor(input.cursor, NAMESPACE_ORDER, z.tuple([z.array(z.string()).min(1)]));
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
  if (after)
    conditions.push(sql`${memories.namespace}[1 : ${depth}] > ${textArray([...ctx.principal.root, ...after[0]])}`);
  const rows = await asUser(ctx, (unit) =>
    unit.rows<{ namespace: string[] }>(sql`
      select distinct ${memories.namespace}[1 : ${depth}] as namespace
      from ${memories}
      where ${and(...conditions)}
      order by namespace
      limit ${input.limit + 1}`),
  );
  const { page, nextCursor } = keyedPage(rows, input.limit, NAMESPACE_ORDER, (row) => [
    relativeNamespace(ctx.principal.root, row.namespace),
  ]);
  return { namespaces: page.map((row) => relativeNamespace(ctx.principal.root, row.namespace)), nextCursor };
}

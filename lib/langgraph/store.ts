import type { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { validateNamespace } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import {
  createMemory,
  deleteMemory,
  findMemoryByKey,
  listMemories,
  listNamespaces,
  type Memory,
  replaceMemory,
} from "@/lib/memory/store";
import type { listNamespacesBody, putItemBody, searchItemsBody } from "./requests";

/** A store item as the Agent Server returns it (snake_case timestamps). */
export interface StoreItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface SearchStoreItem extends StoreItem {
  score: number | null;
}

type Value = Record<string, unknown>;

/** `{ content: "…" }` is an ordinary memory; any other object is kept verbatim as a `document`. */
function kindFor(value: Value): "memory" | "document" {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "content" && typeof value.content === "string" ? "memory" : "document";
}

/** Memories of any kind read back as their content object; a bare string content becomes `{ content }`. */
function itemValue(memory: Memory): Value {
  const content = memory.content;
  if (content !== null && typeof content === "object" && !Array.isArray(content)) return content as Value;
  return { content };
}

export function toStoreItem(memory: Memory): StoreItem {
  return {
    namespace: memory.namespace,
    key: memory.key,
    value: itemValue(memory),
    created_at: memory.createdAt.toISOString(),
    updated_at: memory.updatedAt.toISOString(),
  };
}

/**
 * Creates or replaces the item: a new key is a new memory, an existing one a new version, a deleted or purged one is
 * restored and updated in one transaction (both steps appear in its history). `index` and `ttl` are accepted and ignored: every memory's text
 * is indexed, and memories do not expire.
 */
export async function putItem(ctx: MemoryContext, input: z.output<typeof putItemBody>): Promise<void> {
  const namespace = validateNamespace(input.namespace);
  const kind = kindFor(input.value);
  const existing = await findMemoryByKey(ctx, namespace, input.key);
  if (!existing) {
    await createMemory(ctx, { namespace, key: input.key, kind, content: input.value });
    return;
  }
  await replaceMemory(ctx, existing.id, { kind, content: input.value });
}

/** The active item, or null (the Agent Server answers a missing item with 200 and `null`). */
export async function getItem(ctx: MemoryContext, namespace: string[], key: string): Promise<StoreItem | null> {
  const memory = await findMemoryByKey(ctx, validateNamespace(namespace), key);
  return memory && memory.status === "active" ? toStoreItem(memory) : null;
}

/** Soft delete: the memory becomes a tombstone with its history kept. Deleting a missing item is not an error. */
export async function deleteItem(ctx: MemoryContext, namespace: string[], key: string): Promise<void> {
  const memory = await findMemoryByKey(ctx, validateNamespace(namespace), key);
  if (memory && memory.status === "active")
    await deleteMemory(ctx, memory.id, { reason: "deleted via the LangGraph store API" });
}

const LIST_PAGE = 200;

/**
 * With `query`: hybrid search (full-text, trigram, vector when configured) ranked by fused score. Without: newest
 * first, as the Agent Server lists. `filter` applies to the value's fields with the $eq/$ne/$gt/$gte/$lt/$lte/$in/$nin
 * operators.
 */
export async function searchItems(
  ctx: MemoryContext,
  input: z.output<typeof searchItemsBody>,
): Promise<SearchStoreItem[]> {
  const namespace = validateNamespace(input.namespace_prefix);
  const content = input.filter ?? undefined;
  const query = input.query?.trim();
  if (query) {
    const wanted = input.offset + input.limit;
    if (wanted > 100) {
      throw new ValidationError("offset + limit is at most 100 when searching with a query.", [
        { path: ["offset"], message: "too large with a query" },
      ]);
    }
    const results = await searchMemories(ctx, { query, namespace, content, limit: wanted });
    return results.slice(input.offset).map(({ memory, score }) => ({ ...toStoreItem(memory), score }));
  }
  // Pages are cut to what is still wanted and skipped items are not kept, so a search reads at most offset + limit
  // memories and holds at most one page of them.
  const end = input.offset + input.limit;
  const items: SearchStoreItem[] = [];
  let read = 0;
  let cursor: string | undefined;
  do {
    const page = await listMemories(ctx, { namespace, content, limit: Math.min(LIST_PAGE, end - read), cursor });
    for (const memory of page.memories) {
      if (read >= input.offset) items.push({ ...toStoreItem(memory), score: null });
      read++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor && read < end);
  return items;
}

/**
 * LangGraph's `offset` and `limit` over the keyset-paged namespaces: as searchItems does with memories, pages (of
 * at most `pageSize`, the most listNamespaces gives) are cut to what is still wanted and skipped namespaces are not
 * kept, so a request holds at most one page.
 */
export async function listItemNamespaces(
  ctx: MemoryContext,
  input: z.output<typeof listNamespacesBody>,
  pageSize = 1_000,
): Promise<string[][]> {
  const filters = {
    prefix: input.prefix ?? undefined,
    suffix: input.suffix ?? undefined,
    maxDepth: input.max_depth ?? undefined,
  };
  const end = input.offset + input.limit;
  const namespaces: string[][] = [];
  let read = 0;
  let cursor: string | undefined;
  do {
    const page = await listNamespaces(ctx, { ...filters, limit: Math.min(pageSize, end - read), cursor });
    for (const namespace of page.namespaces) {
      if (read >= input.offset) namespaces.push(namespace);
      read++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor && read < end);
  return namespaces;
}

import type { MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import { listMemories, type Memory } from "@/lib/memory/store";
import { dateRange, type ListQuery, namespaceFilter } from "./list-query";

export const PAGE_SIZE = 50;
/** Search ranks rather than pages: the best this many matches are shown. */
export const SEARCH_LIMIT = 100;

export interface ConsoleListing {
  mode: "list" | "search";
  memories: Array<Memory & { score?: number }>;
  nextCursor: string | null;
}

/**
 * The console's list: with `q`, the search's best matches (one ranked page); without, the core's list in the
 * chosen order. A cursor from a hand-edited URL or another sort order restarts at the first page.
 */
export async function listConsoleMemories(ctx: MemoryContext, query: ListQuery): Promise<ConsoleListing> {
  const range = dateRange(query);
  const timeField: "createdAt" | "updatedAt" = query.sort.startsWith("created") ? "createdAt" : "updatedAt";
  const filters = {
    kind: query.kind,
    status: query.status,
    source: query.source,
    namespace: namespaceFilter(query),
    timeRange: range ? { field: timeField, ...range } : undefined,
    asOf: query.asOf ? new Date(`${query.asOf}T00:00:00.000Z`) : undefined,
    pinned: query.pinned ? true : undefined,
  };
  if (query.q) {
    const results = await searchMemories(ctx, { ...filters, query: query.q, limit: SEARCH_LIMIT });
    return {
      mode: "search",
      memories: results.map((result) => ({ ...result.memory, score: result.score })),
      nextCursor: null,
    };
  }
  const page = await listMemories(ctx, {
    ...filters,
    sort: query.sort,
    cursor: query.cursor,
    limit: PAGE_SIZE,
    onInvalidCursor: "restart",
  });
  return { mode: "list", memories: page.memories, nextCursor: page.nextCursor };
}

import { and, asc, desc, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { asUser } from "@/lib/db/principal";
import { memories } from "@/lib/db/schema";
import { type Memory, type MemoryContext, searchMemories } from "@/lib/memory";
import { filterConditions } from "@/lib/memory/filters";
import { toMemory } from "@/lib/memory/store";
import { dateRange, type ListQuery, namespaceFilter, type Sort } from "./list-query";

export const PAGE_SIZE = 50;
/** Search ranks rather than pages: the best this many matches are shown. */
export const SEARCH_LIMIT = 100;

export interface ConsoleListing {
  mode: "list" | "search";
  memories: Array<Memory & { score?: number }>;
  nextCursor: string | null;
}

const cursorSchema = z.strictObject({ at: z.iso.datetime(), id: z.uuid() });
type CursorPosition = z.infer<typeof cursorSchema>;

function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify(position), "utf8").toString("base64url");
}

/** A cursor from another sort order or a hand-edited URL restarts at the first page. */
function decodeCursor(cursor: string | undefined): CursorPosition | null {
  if (!cursor) return null;
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    return null;
  }
}

const SORT_ORDER: Record<Sort, { field: "createdAt" | "updatedAt"; descending: boolean }> = {
  updated_desc: { field: "updatedAt", descending: true },
  updated_asc: { field: "updatedAt", descending: false },
  created_desc: { field: "createdAt", descending: true },
  created_asc: { field: "createdAt", descending: false },
};

/**
 * The console's list: with `q`, the hybrid search's best matches (one ranked page); without, every memory matching
 * the filters in the chosen order, paged by keyset on (timestamp, id) so each page costs one index range scan.
 */
export async function listConsoleMemories(ctx: MemoryContext, query: ListQuery): Promise<ConsoleListing> {
  const { field: timeField, descending } = SORT_ORDER[query.sort];
  const range = dateRange(query);
  const filters = {
    kind: query.kind,
    status: query.status,
    namespace: namespaceFilter(query),
    timeRange: range ? { field: timeField, ...range } : undefined,
  };
  if (query.q) {
    const results = await searchMemories(ctx, { ...filters, query: query.q, limit: SEARCH_LIMIT });
    // Source type is not a core search filter; the ranked hits are narrowed here.
    const matching = query.source ? results.filter((result) => result.memory.source.type === query.source) : results;
    return {
      mode: "search",
      memories: matching.map((result) => ({ ...result.memory, score: result.score })),
      nextCursor: null,
    };
  }
  const column = memories[timeField];
  const conditions: SQL[] = [filterConditions(ctx, filters)];
  if (query.source) conditions.push(sql`${memories.sourceType} = ${query.source}`);
  const position = decodeCursor(query.cursor);
  if (position) {
    const after = sql`(${column}, ${memories.id})`;
    const at = sql`(${position.at}::timestamptz, ${position.id}::uuid)`;
    conditions.push(descending ? sql`${after} < ${at}` : sql`${after} > ${at}`);
  }
  const order = descending ? desc : asc;
  const rows = await asUser(ctx.database.db, ctx.principal.userId, (tx) =>
    tx
      .select()
      .from(memories)
      .where(and(...conditions))
      .orderBy(order(column), order(memories.id))
      .limit(PAGE_SIZE + 1),
  );
  const page = rows.slice(0, PAGE_SIZE);
  const last = page.at(-1);
  return {
    mode: "list",
    memories: page.map((row) => toMemory(ctx, row)),
    nextCursor:
      rows.length > PAGE_SIZE && last ? encodeCursor({ at: last[timeField].toISOString(), id: last.id }) : null,
  };
}

import { sql } from "drizzle-orm";
import { encodeCursor } from "@/lib/db/keyset";
import type { MemoryContext } from "@/lib/memory/core";
import { listMemories } from "@/lib/memory/store";
import { type LatencySummary, summarize, timed } from "../metrics";

export const LIST_PAGE_SIZE = 50;

export interface ListFigure {
  database: string;
  memories: number;
  firstPageMs: LatencySummary;
  /** A keyset page 90% of the way down the user's memories. */
  deepPageMs: LatencySummary;
  deepOffset: number;
}

/** The console's list query (listMemories, newest first) for its first page and for a page deep in the list. */
export async function measureList(ctx: MemoryContext, memories: number, repeats: number): Promise<ListFigure> {
  const deepOffset = Math.floor(memories * 0.9);
  const [position] = await ctx.database.unbound.rows<{ updated_at: string | Date; id: string }>(sql`
    select updated_at, id from memories
    where user_id = ${ctx.principal.userId}::uuid and status = 'active'
    order by updated_at desc, id desc offset ${deepOffset} limit 1`);
  if (!position) throw new Error("the user has fewer memories than expected");
  const cursor = encodeCursor(
    { name: "updated_desc", direction: "desc" },
    { at: new Date(position.updated_at), id: position.id },
  );
  const first: number[] = [];
  const deep: number[] = [];
  await listMemories(ctx, { limit: LIST_PAGE_SIZE });
  for (let i = 0; i < repeats; i++) {
    first.push((await timed(() => listMemories(ctx, { limit: LIST_PAGE_SIZE }))).ms);
    deep.push((await timed(() => listMemories(ctx, { limit: LIST_PAGE_SIZE, cursor }))).ms);
  }
  return {
    database: ctx.database.kind,
    memories,
    firstPageMs: summarize(first),
    deepPageMs: summarize(deep),
    deepOffset,
  };
}

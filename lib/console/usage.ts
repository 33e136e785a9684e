import { and, desc, eq } from "drizzle-orm";
import { cappedRows } from "@/lib/db/keyset";
import { memoryAccess, threads } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";

export interface MemoryUse {
  threadId: string;
  threadTitle: string | null;
  messageId: string;
  via: "recall" | "search";
  score: number;
  rank: number;
  createdAt: Date;
}

/**
 * The newest `limit` answers a memory shaped (recalled into their instructions or returned by their searches), newest
 * first; `truncated` when it shaped more.
 */
export async function listMemoryUses(
  ctx: UserBinding,
  memoryId: string,
  limit = 50,
): Promise<{ uses: MemoryUse[]; truncated: boolean }> {
  const userId = ctx.principal.userId;
  const rows = await asUser(ctx, ({ db }) =>
    db
      .select({
        threadId: memoryAccess.threadId,
        threadTitle: threads.title,
        messageId: memoryAccess.messageId,
        via: memoryAccess.via,
        score: memoryAccess.score,
        rank: memoryAccess.rank,
        createdAt: memoryAccess.createdAt,
      })
      .from(memoryAccess)
      .leftJoin(threads, and(eq(threads.userId, memoryAccess.userId), eq(threads.id, memoryAccess.threadId)))
      .where(and(eq(memoryAccess.userId, userId), eq(memoryAccess.memoryId, memoryId)))
      .orderBy(desc(memoryAccess.createdAt), desc(memoryAccess.messageId))
      .limit(limit + 1),
  );
  const { rows: uses, truncated } = cappedRows(rows, limit);
  return { uses, truncated };
}

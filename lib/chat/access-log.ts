import { memoryAccess } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import type { ChatMessage, RecalledMemory } from "./types";

/** Records which memories shaped an answer: those recalled into its instructions and those its searches returned. */
export async function recordMemoryAccess(
  ctx: UserBinding,
  threadId: string,
  answer: ChatMessage,
  recalled: readonly RecalledMemory[],
) {
  const rows: Array<{ via: "recall" | "search"; memory: RecalledMemory; rank: number }> = recalled.map(
    (memory, rank) => ({ via: "recall", memory, rank }),
  );
  let searchRank = 0;
  for (const part of answer.parts) {
    if (part.type !== "tool-search_memory" || part.state !== "output-available") continue;
    for (const hit of part.output) rows.push({ via: "search", memory: hit, rank: searchRank++ });
  }
  if (rows.length === 0) return;
  await asUser(ctx, ({ db }) =>
    db
      .insert(memoryAccess)
      .values(
        rows.map(({ via, memory, rank }) => ({
          userId: ctx.principal.userId,
          threadId,
          messageId: answer.id,
          memoryId: memory.id,
          via,
          score: memory.score,
          rank,
        })),
      )
      .onConflictDoNothing(),
  );
}

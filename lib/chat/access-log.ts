import type { Db } from "@/lib/db";
import { asUser } from "@/lib/db/principal";
import { memoryAccess } from "@/lib/db/schema";
import type { ChatMessage, RecalledMemory } from "./types";

/** Records which memories shaped an answer: those recalled into its instructions and those its searches returned. */
export async function recordMemoryAccess(
  db: Db,
  scope: { userId: string; threadId: string },
  answer: ChatMessage,
  recalled: readonly RecalledMemory[],
) {
  const rows: Array<{ via: "recall" | "search"; memory: RecalledMemory; rank: number }> = recalled.map(
    (memory, rank) => ({ via: "recall", memory, rank }),
  );
  let searchRank = 0;
  for (const part of answer.parts) {
    if (part.type !== "tool-search_memory" || part.state !== "output-available") continue;
    for (const hit of part.output) {
      rows.push({
        via: "search",
        memory: { id: hit.id, kind: hit.kind, text: hit.content, score: hit.score },
        rank: searchRank++,
      });
    }
  }
  if (rows.length === 0) return;
  await asUser(db, scope.userId, (tx) =>
    tx
      .insert(memoryAccess)
      .values(
        rows.map(({ via, memory, rank }) => ({
          userId: scope.userId,
          threadId: scope.threadId,
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

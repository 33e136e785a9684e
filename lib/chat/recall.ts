import { LIMITS, toModelMemory } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import { listMemories } from "@/lib/memory/store";
import type { RecalledMemory } from "./types";

const RECALL_LIMIT = 5;
/** Pinned memories recalled into every turn at most; beyond it the newest pins win. */
const PINNED_LIMIT = 20;

/**
 * The memories put in front of the model before it answers: the best matches for the latest user message, every
 * pinned memory still in force (whatever the message is about), plus the user's profile document when there is one.
 */
export async function recallMemories(ctx: MemoryContext, latestUserText: string): Promise<RecalledMemory[]> {
  const query = latestUserText.trim().slice(0, LIMITS.queryChars);
  const [matches, pinned, profile] = await Promise.all([
    query ? searchMemories(ctx, { query, limit: RECALL_LIMIT }) : Promise.resolve([]),
    listMemories(ctx, { pinned: true, limit: PINNED_LIMIT }),
    listMemories(ctx, { kind: "profile", limit: 1 }),
  ]);
  const recalled: RecalledMemory[] = matches.map(({ memory, score }) => ({ ...toModelMemory(memory), score }));
  const now = ctx.clock().getTime();
  for (const memory of pinned.memories) {
    // A superseded pin is history: the fact no longer holds.
    if (memory.validTo && memory.validTo.getTime() <= now) continue;
    if (recalled.some((entry) => entry.id === memory.id)) continue;
    recalled.push({ ...toModelMemory(memory), score: 1 });
  }
  const [profileMemory] = profile.memories;
  if (profileMemory && !recalled.some((memory) => memory.id === profileMemory.id)) {
    recalled.push({ ...toModelMemory(profileMemory), score: 1 });
  }
  return recalled;
}

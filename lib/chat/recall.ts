import { LIMITS, toModelMemory } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import { listMemories, type SearchResult } from "@/lib/memory/store";
import type { RecalledMemory } from "./types";

const RECALL_LIMIT = 5;
/**
 * Below this many memories, recall keeps its best matches whatever their confidence: the confidence was fitted on
 * users with hundreds of memories, and over a handful a memory cannot stand out of the rest by meaning (two memories'
 * similarities are one standard deviation either side of their mean), so "what's my job?" would lose the one memory
 * about a nurse. Injecting a few memories too many costs little there (docs/performance.md, "Search quality").
 */
export const RECALL_JUDGED_FROM = 50;

/**
 * A hit the chat puts in front of the model: a confident one, or any among a few memories (RECALL_JUDGED_FROM). A
 * question nothing in memory answers then recalls nothing rather than its least bad matches, which the model would
 * read as what it knows.
 */
function isRecalled(hit: SearchResult): boolean {
  return hit.confidence >= LIMITS.confidenceFloor || (hit.signals?.memories ?? 0) < RECALL_JUDGED_FROM;
}

/** What recall searches for: the latest user message, within the query's limit. */
export function recallQuery(latestUserText: string): string {
  return latestUserText.trim().slice(0, LIMITS.queryChars);
}

/** Pinned memories recalled into every turn at most; beyond it the newest pins win. */
const PINNED_LIMIT = 20;

/**
 * The memories put in front of the model before it answers: the best matches for the latest user message that it
 * recalls (isRecalled), every pinned memory still in force (whatever the message is about), plus the user's profile
 * document when there is one.
 */
export async function recallMemories(ctx: MemoryContext, latestUserText: string): Promise<RecalledMemory[]> {
  const query = recallQuery(latestUserText);
  // One after another: in the turn's unit of work (lib/chat/turn.ts) they share one connection anyway.
  const matches = query ? await searchMemories(ctx, { query, limit: RECALL_LIMIT }) : [];
  const pinned = await listMemories(ctx, { pinned: true, limit: PINNED_LIMIT });
  const profile = await listMemories(ctx, { kind: "profile", limit: 1 });
  const recalled: RecalledMemory[] = matches
    .filter(isRecalled)
    .map(({ memory, score }) => ({ ...toModelMemory(memory), score }));
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

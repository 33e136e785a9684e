import { listMemories, type MemoryContext, searchMemories } from "@/lib/memory";
import type { RecalledMemory } from "./types";

const RECALL_LIMIT = 5;

/**
 * The memories put in front of the model before it answers: the best matches for the latest user message, plus the
 * user's profile document when there is one.
 */
export async function recallMemories(ctx: MemoryContext, latestUserText: string): Promise<RecalledMemory[]> {
  const query = latestUserText.trim().slice(0, 2_000);
  const [matches, profile] = await Promise.all([
    query ? searchMemories(ctx, { query, limit: RECALL_LIMIT }) : Promise.resolve([]),
    listMemories(ctx, { kind: "profile", limit: 1 }),
  ]);
  const recalled: RecalledMemory[] = matches.map(({ memory, score }) => ({
    id: memory.id,
    kind: memory.kind,
    text: memory.text,
    score,
  }));
  const [profileMemory] = profile.memories;
  if (profileMemory && !recalled.some((memory) => memory.id === profileMemory.id)) {
    recalled.push({ id: profileMemory.id, kind: profileMemory.kind, text: profileMemory.text, score: 1 });
  }
  return recalled;
}

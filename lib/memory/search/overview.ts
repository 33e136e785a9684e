import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { memories, memoryAccess } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import type { memoryFiltersSchema } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { filterConditions, type SearchResult, toMemory } from "@/lib/memory/store";

/** Words that refer to the user asking. */
const SELF = new Set(["i", "me", "my", "myself", "mine", "user", "user's"]);
/**
 * Words a question about the user *in general* is made of: function words, and asking what is known. Anything else
 * ("job", "editor", "allergic") is a subject, and the question is searched for it.
 */
const GENERAL = new Set([
  ...["a", "an", "the", "and", "or", "of", "on", "in", "to", "for", "with", "so", "far", "yet", "else", "just"],
  ...["what", "what's", "whats", "who", "how", "which", "do", "does", "did", "can", "could", "would", "will"],
  ...["is", "am", "are", "was", "were", "be", "been", "have", "has", "had", "you", "your", "you've", "that", "this"],
  ...["know", "knows", "remember", "remembers", "recall", "tell", "say", "said", "show", "list", "give", "summarize"],
  ...["summarise", "summary", "learned", "learnt", "stored", "saved", "kept", "noted", "got", "about", "regarding"],
  ...["anything", "everything", "something", "all", "things", "thing", "stuff", "info", "information", "details"],
  ...["facts", "profile", "memory", "memories", "please", "me", "us", "already", "currently", "now", "there"],
]);

/** "What do you know about me?", "who am I?", "tell me everything you remember": about the user, no subject. */
export function isOverviewQuestion(query: string): boolean {
  const words = query.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  return words.some((word) => SELF.has(word)) && words.every((word) => SELF.has(word) || GENERAL.has(word));
}

/**
 * What is known about the user, for a question with nothing to rank by: their profile first, then the memories
 * that shaped the most answers, then the latest. Scores fall with the position, from 1.
 */
export async function overview(
  ctx: MemoryContext,
  filters: z.output<typeof memoryFiltersSchema>,
  limit: number,
  openAt?: Date,
): Promise<SearchResult[]> {
  const scope = filterConditions(ctx, filters, { openAt });
  const rows = await asUser(ctx, async ({ db }) => {
    const profile = await db
      .select()
      .from(memories)
      .where(and(scope, eq(memories.kind, "profile")))
      .orderBy(desc(memories.updatedAt))
      .limit(1);
    const used = await db
      .select({ memory: memories })
      .from(memoryAccess)
      .innerJoin(memories, and(eq(memories.userId, memoryAccess.userId), eq(memories.id, memoryAccess.memoryId)))
      .where(and(eq(memoryAccess.userId, ctx.principal.userId), scope))
      .groupBy(memories.userId, memories.id)
      .orderBy(desc(sql`count(*)`), desc(memories.updatedAt), memories.id)
      .limit(limit);
    const latest = await db
      .select()
      .from(memories)
      .where(scope)
      .orderBy(desc(memories.updatedAt), desc(memories.id))
      .limit(limit);
    return [...profile, ...used.map((row) => row.memory), ...latest];
  });
  const seen = new Set<string>();
  const picked = rows.filter((row) => !seen.has(row.id) && seen.add(row.id)).slice(0, limit);
  // What is known about the user is the answer to the question asked: every hit is confident.
  return picked.map((row, rank) => ({ memory: toMemory(ctx, row), score: 1 - rank / (2 * limit), confidence: 1 }));
}

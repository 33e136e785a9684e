import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { extractionRuns, messages } from "@/lib/db/schema";

const PURGED_MARK = "[purged]";
const ERASABLE_FIELDS = new Set(["content", "text", "quote"]);
/** Shorter texts would erase unrelated words; such memories are still found through their id. */
const MIN_NEEDLE_LENGTH = 8;

/**
 * Erases the copies of a purged memory's text kept outside the memory tables: extraction run logs (proposed,
 * applied and rejected ops) and the assistant side of chats (tool results, recalled memories, answers quoting it).
 * The user's own messages stay: they are the user's words, removed by deleting the chat.
 */
export async function eraseCopies(tx: Db, userId: string, memoryId: string, texts: readonly string[]) {
  const needles = [...new Set(texts.map((text) => text.trim().toLowerCase()))].filter(
    (text) => text.length >= MIN_NEEDLE_LENGTH,
  );
  const scrub = (value: unknown): unknown => scrubValue(value, memoryId, needles);

  const runs = await tx
    .select()
    .from(extractionRuns)
    .where(
      and(
        eq(extractionRuns.userId, userId),
        mentions(
          sql`(${extractionRuns.opsProposed}::text || ${extractionRuns.opsApplied}::text || ${extractionRuns.opsRejected}::text)`,
          memoryId,
          needles,
        ),
      ),
    );
  for (const run of runs) {
    await tx
      .update(extractionRuns)
      .set({
        opsProposed: scrub(run.opsProposed) as unknown[],
        opsApplied: scrub(run.opsApplied) as unknown[],
        opsRejected: scrub(run.opsRejected) as unknown[],
      })
      .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, run.id)));
  }

  const answers = await tx
    .select({ id: messages.id, parts: messages.parts, metadata: messages.metadata })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        inArray(messages.role, ["assistant"]),
        mentions(sql`(${messages.parts}::text || coalesce(${messages.metadata}::text, ''))`, memoryId, needles),
      ),
    );
  for (const answer of answers) {
    await tx
      .update(messages)
      .set({
        parts: scrub(answer.parts) as unknown[],
        metadata: scrub(answer.metadata) as Record<string, unknown> | null,
      })
      .where(and(eq(messages.userId, userId), eq(messages.id, answer.id)));
  }
}

/** Rows whose JSON text mentions the memory id or (case-insensitively) one of its texts. */
function mentions(json: SQL, memoryId: string, needles: string[]): SQL {
  const found = [memoryId, ...needles.map((needle) => JSON.stringify(needle).slice(1, -1))].map(
    (needle) => sql`strpos(lower(${json}), ${needle}) > 0`,
  );
  return sql`(${sql.join(found, sql` or `)})`;
}

function scrubValue(value: unknown, memoryId: string, needles: string[]): unknown {
  if (typeof value === "string") {
    const lower = value.toLowerCase();
    return needles.some((needle) => lower.includes(needle)) ? PURGED_MARK : value;
  }
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, memoryId, needles));
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const ownsMemory = record.id === memoryId || record.memoryId === memoryId;
    return Object.fromEntries(
      Object.entries(record).map(([key, field]) => [
        key,
        ownsMemory && ERASABLE_FIELDS.has(key) ? null : scrubValue(field, memoryId, needles),
      ]),
    );
  }
  return value;
}

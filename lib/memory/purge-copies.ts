import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { extractionRuns, memoryProposals, messages, optimizerRuns, threads } from "@/lib/db/schema";
import { reduceToIds } from "./webhooks/outbox";

const PURGED_MARK = "[purged]";
const ERASABLE_FIELDS = new Set(["content", "text", "quote"]);
/** Shorter texts would erase unrelated words; such memories are still found through their id. */
const MIN_NEEDLE_LENGTH = 8;

/**
 * Erases the copies of a purged memory's text kept outside the memory tables: extraction run logs (proposed,
 * applied and rejected ops, and the error of a failed run), the assistant side of chats (tool results, recalled
 * memories, answers quoting it), the optimizer's run records, the running summaries of chats (which fold in those tool calls) and the payloads
 * of its webhook deliveries (reduced to its id, whether sent or still waiting). The user's own
 * messages stay: they are the user's words, removed by deleting the chat. The job queue never holds user text (see
 * queueSafeError in ./queue.ts), so there is nothing to erase there.
 */
export async function eraseCopies(tx: Db, userId: string, memoryId: string, texts: readonly string[], now: Date) {
  const needles = [...new Set(texts.map((text) => text.trim().toLowerCase()))].filter(
    (text) => text.length >= MIN_NEEDLE_LENGTH,
  );
  const scrub = (value: unknown): unknown => scrubValue(value, memoryId, needles);
  await reduceToIds(tx, userId, memoryId);

  const runs = await tx
    .select()
    .from(extractionRuns)
    .where(
      and(
        eq(extractionRuns.userId, userId),
        mentions(
          sql`(${extractionRuns.opsProposed}::text || ${extractionRuns.opsApplied}::text || ${extractionRuns.opsRejected}::text || coalesce(${extractionRuns.error}, ''))`,
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
        error: run.error === null ? null : scrubLines(run.error, needles),
      })
      .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, run.id)));
  }

  // The optimizer's answer may quote the answers it read, and so the memory.
  const passes = await tx
    .select({ id: optimizerRuns.id, proposed: optimizerRuns.proposed, rejected: optimizerRuns.rejected })
    .from(optimizerRuns)
    .where(
      and(
        eq(optimizerRuns.userId, userId),
        mentions(
          sql`(coalesce(${optimizerRuns.proposed}::text, '') || ${optimizerRuns.rejected}::text)`,
          memoryId,
          needles,
        ),
      ),
    );
  for (const pass of passes) {
    await tx
      .update(optimizerRuns)
      .set({ proposed: scrub(pass.proposed), rejected: scrub(pass.rejected) as unknown[] })
      .where(and(eq(optimizerRuns.userId, userId), eq(optimizerRuns.id, pass.id)));
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

  // A proposal about the memory, or carrying its words, is erased down to ids and the content hash (which keeps a
  // rejected fact suppressed); one still pending can no longer be decided and ends rejected.
  await tx
    .update(memoryProposals)
    .set({
      content: null,
      text: null,
      quote: null,
      reason: null,
      decisionReason: null,
      status: sql`case when ${memoryProposals.status} = 'pending' then 'rejected' else ${memoryProposals.status} end`,
      decidedAt: sql`coalesce(${memoryProposals.decidedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(
      and(
        eq(memoryProposals.userId, userId),
        or(
          eq(memoryProposals.memoryId, memoryId),
          mentions(
            sql`(coalesce(${memoryProposals.text}, '') || coalesce(${memoryProposals.content}::text, '') || coalesce(${memoryProposals.quote}, '') || coalesce(${memoryProposals.reason}, '') || coalesce(${memoryProposals.decisionReason}, ''))`,
            memoryId,
            needles,
          ),
        ),
      ),
    );

  const summaries = await tx
    .select({ id: threads.id, summary: threads.summary })
    .from(threads)
    .where(and(eq(threads.userId, userId), mentions(sql`coalesce(${threads.summary}, '')`, memoryId, needles)));
  for (const thread of summaries) {
    await tx
      .update(threads)
      .set({ summary: scrubLines(thread.summary ?? "", needles) })
      .where(and(eq(threads.userId, userId), eq(threads.id, thread.id)));
  }
}

/** A prose copy (a summary, an error message) keeps its other lines; a line mentioning the text becomes the mark. */
function scrubLines(text: string, needles: readonly string[]): string {
  return text
    .split("\n")
    .map((line) => (needles.some((needle) => line.toLowerCase().includes(needle)) ? PURGED_MARK : line))
    .join("\n");
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

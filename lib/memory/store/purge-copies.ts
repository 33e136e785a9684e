import { and, eq, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import {
  extractionRuns,
  memories,
  memoryProposals,
  memoryVersions,
  messages,
  optimizerRuns,
  threads,
} from "@/lib/db/schema";
import { contentHash, type KindRegistry, prepareContent } from "@/lib/memory/core";
import { reduceToIds } from "@/lib/memory/webhooks";

const ERASED_MARK = "[erased]";
/** The fields of a record about an erased fact that hold its words (ops, tool calls and results, applied changes). */
const FACT_FIELDS: ReadonlySet<string> = new Set(["content", "text", "fields", "quote", "reason"]);
/** The field of a record citing a message that holds the message's words. */
const THREAD_RUN_FIELDS: ReadonlySet<string> = new Set(["quote", "reason"]);
/**
 * Prose (summaries, answers, error messages) is scrubbed by substring, and a shorter text would erase unrelated
 * words. Structured records are matched by what they are about instead — a memory id, a content hash, a message id —
 * whatever the text's length.
 */
const MIN_NEEDLE_LENGTH = 8;

/** Which fields of a record (an object anywhere in a stored JSON value) to empty: none when it is not concerned. */
type FieldsToErase = (record: Record<string, unknown>) => ReadonlySet<string> | null;

/** A purged memory: its id, every text and content it ever had, and the kinds to read ops' content with. */
export interface PurgedMemory {
  memoryId: string;
  texts: readonly string[];
  contents: readonly unknown[];
  kinds: KindRegistry;
}

/**
 * Erases the copies of a purged memory's words kept outside the memory tables: extraction run logs (proposed,
 * applied and rejected ops, and the error of a failed run), the assistant side of chats (tool calls and results,
 * recalled memories, answers quoting it), the optimizer's run records, the running summaries of chats (which fold in
 * those tool calls), proposals and the payloads of its webhook deliveries (reduced to its id, whether sent or still
 * waiting). An op or tool call is erased when it is about the memory (its id) or states the same fact (the same
 * content hash), however short the text. The user's own messages stay: they are the user's words, removed by deleting
 * the chat. The job queue never holds user text (see queueSafeError in lib/server/job-attempt.ts), so there is nothing
 * to erase there.
 */
export async function eraseCopies(tx: Db, userId: string, purged: PurgedMemory, now: Date) {
  const { memoryId } = purged;
  const needles = proseNeedles(purged.texts);
  const hashes = new Set(purged.texts.map(contentHash));
  const fieldsToErase: FieldsToErase = (record) =>
    record.id === memoryId || record.memoryId === memoryId || statesFact(record, purged.kinds, hashes)
      ? FACT_FIELDS
      : null;
  const scrub = (value: unknown): unknown => scrubValue(value, fieldsToErase, needles);
  // Rows worth reading: those whose JSON holds the id, a text, or a value of the content (an op may carry the fact as
  // fields). Which of their records state the fact is then decided by hash, not by these substrings.
  const found = [memoryId, ...purged.texts, ...purged.contents.flatMap(stringLeaves)];
  await reduceToIds(tx, userId, memoryId);
  await scrubExtractionRuns(tx, userId, found, scrub, needles);
  await scrubOptimizerRuns(tx, userId, found, scrub);
  await scrubAnswers(tx, userId, found, scrub);
  await eraseProposals(tx, userId, { memoryId, hashes, needles }, now);
  await scrubSummaries(tx, userId, memoryId, needles);
}

type Scrub = (value: unknown) => unknown;

async function scrubExtractionRuns(
  tx: Db,
  userId: string,
  found: readonly string[],
  scrub: Scrub,
  needles: readonly string[],
) {
  const runs = await tx
    .select()
    .from(extractionRuns)
    .where(and(eq(extractionRuns.userId, userId), mentions(runText, found)));
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
}

/** The optimizer's answer may quote the answers it read, and so the memory. */
async function scrubOptimizerRuns(tx: Db, userId: string, found: readonly string[], scrub: Scrub) {
  const passes = await tx
    .select({ id: optimizerRuns.id, proposed: optimizerRuns.proposed, rejected: optimizerRuns.rejected })
    .from(optimizerRuns)
    .where(
      and(
        eq(optimizerRuns.userId, userId),
        mentions(sql`(coalesce(${optimizerRuns.proposed}::text, '') || ${optimizerRuns.rejected}::text)`, found),
      ),
    );
  for (const pass of passes) {
    await tx
      .update(optimizerRuns)
      .set({ proposed: scrub(pass.proposed), rejected: scrub(pass.rejected) as unknown[] })
      .where(and(eq(optimizerRuns.userId, userId), eq(optimizerRuns.id, pass.id)));
  }
}

async function scrubAnswers(tx: Db, userId: string, found: readonly string[], scrub: Scrub) {
  const answers = await tx
    .select({ id: messages.id, parts: messages.parts, metadata: messages.metadata })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        inArray(messages.role, ["assistant"]),
        mentions(sql`(${messages.parts}::text || coalesce(${messages.metadata}::text, ''))`, found),
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

/**
 * A proposal about the memory, stating the same fact or carrying its words, is erased down to ids and the content
 * hash (which keeps a rejected fact suppressed); one still pending can no longer be decided and ends rejected.
 */
async function eraseProposals(
  tx: Db,
  userId: string,
  fact: { memoryId: string; hashes: ReadonlySet<string>; needles: readonly string[] },
  now: Date,
) {
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
          eq(memoryProposals.memoryId, fact.memoryId),
          inArray(memoryProposals.contentHash, [...fact.hashes]),
          mentions(
            sql`(coalesce(${memoryProposals.text}, '') || coalesce(${memoryProposals.content}::text, '') || coalesce(${memoryProposals.quote}, '') || coalesce(${memoryProposals.reason}, '') || coalesce(${memoryProposals.decisionReason}, ''))`,
            [fact.memoryId, ...fact.needles],
          ),
        ),
      ),
    );
}

async function scrubSummaries(tx: Db, userId: string, memoryId: string, needles: readonly string[]) {
  const summaries = await tx
    .select({ id: threads.id, summary: threads.summary })
    .from(threads)
    .where(and(eq(threads.userId, userId), mentions(sql`coalesce(${threads.summary}, '')`, [memoryId, ...needles])));
  for (const thread of summaries) {
    await tx
      .update(threads)
      .set({ summary: scrubLines(thread.summary ?? "", needles) })
      .where(and(eq(threads.userId, userId), eq(threads.id, thread.id)));
  }
}

/**
 * Erases the words of a chat being deleted from what outlives it: the quote (and message id) in the source of the
 * memories, versions and proposals it gave rise to, the quotes in its extraction runs' ops and any of their prose
 * (reasons, errors) repeating a message, and the source quotes in webhook payloads. The memories and proposals stay:
 * their source keeps its type and the thread's id, and no longer names a message (`threadDeleted` in the API, see
 * ./rows.ts). The recall log (memory_access) and the cost ledger hold ids only. Runs in the deleting transaction.
 */
export async function eraseThreadWords(
  tx: Db,
  userId: string,
  threadId: string,
  thread: ReadonlyArray<{ id: string; text: string }>,
) {
  const forgetMessage = { quote: null, messageId: null };
  await tx
    .update(memories)
    .set(forgetMessage)
    .where(and(eq(memories.userId, userId), eq(memories.threadId, threadId), citesMessage(memories)));
  await tx
    .update(memoryVersions)
    .set(forgetMessage)
    .where(and(eq(memoryVersions.userId, userId), eq(memoryVersions.threadId, threadId), citesMessage(memoryVersions)));
  await tx
    .update(memoryProposals)
    .set(forgetMessage)
    .where(
      and(eq(memoryProposals.userId, userId), eq(memoryProposals.threadId, threadId), citesMessage(memoryProposals)),
    );
  await tx.execute(sql`
    update webhook_deliveries
    set payload = jsonb_set(payload #- '{data,source,quote}' #- '{data,source,messageId}',
                            '{data,source,threadDeleted}', 'true'::jsonb)
    where user_id = ${userId}::uuid and payload #>> '{data,source,threadId}' = ${threadId}
      and payload #> '{data,source,threadDeleted}' is null`);

  const needles = proseNeedles(thread.flatMap((message) => message.text.split("\n")));
  // Every run here read this chat and nothing else: each op's quote and its reason (the model's words about what the
  // person said) go, whichever message the op cited, or none (an op the run rejected may cite a wrong one).
  // A rejection's own reason (`{ op, reason }`, op an object) is ours, not the person's, and stays.
  const fieldsToErase: FieldsToErase = (record) =>
    typeof record.op === "string" || "quote" in record ? THREAD_RUN_FIELDS : null;
  const runs = await tx
    .select()
    .from(extractionRuns)
    .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.threadId, threadId)));
  for (const run of runs) {
    await tx
      .update(extractionRuns)
      .set({
        opsProposed: scrubValue(run.opsProposed, fieldsToErase, needles) as unknown[],
        opsApplied: scrubValue(run.opsApplied, fieldsToErase, needles) as unknown[],
        opsRejected: scrubValue(run.opsRejected, fieldsToErase, needles) as unknown[],
        error: run.error === null ? null : scrubLines(run.error, needles),
      })
      .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, run.id)));
  }
}

const citesMessage = (table: typeof memories | typeof memoryVersions | typeof memoryProposals) =>
  or(isNotNull(table.quote), isNotNull(table.messageId));

const runText = sql`(${extractionRuns.opsProposed}::text || ${extractionRuns.opsApplied}::text || ${extractionRuns.opsRejected}::text || coalesce(${extractionRuns.error}, ''))`;

/** Texts long enough to scrub prose by, lower-cased. */
function proseNeedles(texts: readonly string[]): string[] {
  return [...new Set(texts.map((text) => text.trim().toLowerCase()))].filter(
    (text) => text.length >= MIN_NEEDLE_LENGTH,
  );
}

/**
 * Whether an op, tool call or applied change states the fact whose text hashes are `hashes`: its `text`, or its
 * content (an op's `content`, or the `fields` a manager sends) read as its kind — or, with no kind given, as any kind.
 */
function statesFact(record: Record<string, unknown>, kinds: KindRegistry, hashes: ReadonlySet<string>): boolean {
  if (typeof record.text === "string" && hashes.has(contentHash(record.text))) return true;
  const contents: unknown[] = [];
  if (record.content !== undefined && record.content !== null) contents.push(record.content);
  if (Array.isArray(record.fields)) {
    contents.push(
      Object.fromEntries(
        record.fields.map((field) => [(field as { name?: unknown })?.name, (field as { value?: unknown })?.value]),
      ),
    );
  }
  if (contents.length === 0) return false;
  const names = typeof record.kind === "string" ? [record.kind] : kinds.names();
  for (const content of contents) {
    if (typeof content === "string" && hashes.has(contentHash(content))) return true;
    for (const kind of names) {
      try {
        if (hashes.has(prepareContent(kinds, kind, content).contentHash)) return true;
      } catch {
        // Not content of this kind.
      }
    }
  }
  return false;
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === "string") return value.trim() ? [value.trim()] : [];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** A prose copy (a summary, an error message) keeps its other lines; a line mentioning the text becomes the mark. */
function scrubLines(text: string, needles: readonly string[]): string {
  return text
    .split("\n")
    .map((line) => (needles.some((needle) => line.toLowerCase().includes(needle)) ? ERASED_MARK : line))
    .join("\n");
}

/** Rows whose text mentions (case-insensitively, as stored in JSON) one of `needles`. */
function mentions(text: SQL, needles: readonly string[]): SQL {
  const found = [...new Set(needles.map((needle) => JSON.stringify(needle.toLowerCase()).slice(1, -1)))]
    .filter(Boolean)
    .map((needle) => sql`strpos(lower(${text}), ${needle}) > 0`);
  return found.length > 0 ? sql`(${sql.join(found, sql` or `)})` : sql`false`;
}

/**
 * A stored JSON value with the concerned records' fields emptied (`fieldsToErase`), and any other string that
 * mentions one of `needles` replaced by the mark.
 */
function scrubValue(value: unknown, fieldsToErase: FieldsToErase, needles: readonly string[]): unknown {
  if (typeof value === "string") {
    const lower = value.toLowerCase();
    return needles.some((needle) => lower.includes(needle)) ? ERASED_MARK : value;
  }
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, fieldsToErase, needles));
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const erased = fieldsToErase(record);
    return Object.fromEntries(
      Object.entries(record).map(([key, field]) => [
        key,
        erased?.has(key) ? null : scrubValue(field, fieldsToErase, needles),
      ]),
    );
  }
  return value;
}

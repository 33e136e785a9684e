import { generateText, type LanguageModel, Output } from "ai";
import { and, asc, desc, eq, gte, ne, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { asUser, asUserDatabase } from "@/lib/db/principal";
import { extractionRuns, memories, messages, threads } from "@/lib/db/schema";
import type { MemoryContext } from "../context";
import { MemoryConflictError, MemoryError } from "../errors";
import { defaultKinds, prepareContent } from "../kinds";
import { searchMemories } from "../search";
import { createMemory, deleteMemory, getMemory, listMemories, updateMemory } from "../store";
import {
  type AppliedOp,
  type ExtractionOp,
  type ExtractionOutput,
  extractionOutputSchema,
  type RejectedOp,
} from "./ops";
import { buildExtractionPrompt, EXTRACTION_INSTRUCTIONS, type PromptMemory, type PromptMessage } from "./prompt";
import { openRunOfJob } from "./runs";

export interface ExtractionConfig {
  /** Kinds the manager may insert (default: every registered kind except profile and document). */
  kinds?: string[];
  instructions?: string;
  enableInserts?: boolean;
  enableUpdates?: boolean;
  enableDeletes?: boolean;
  /** How many of the newest user messages are used as search queries for related memories. */
  searchQueries?: number;
  /** How many existing memories the manager sees at most. */
  memoriesShown?: number;
  /** Keep one profile document per namespace, updated in place, instead of separate memories. */
  profileMode?: boolean;
}

export interface ExtractionJob {
  threadId: string;
  /** The queue's job id: attempts of one job share one run row. */
  jobId: string;
  /** No retry follows a failure of this attempt. */
  finalAttempt: boolean;
  /**
   * Leave user messages after the last answer for a later run: their chat turn may still be running and saving
   * memories itself, which the manager must see rather than race. The job the answer enqueues reads them.
   */
  answeredOnly?: boolean;
}

export interface ExtractionDeps {
  /** The thread owner's context; the run writes as the `extractor` actor. */
  ctx: MemoryContext;
  model: LanguageModel;
  modelId: string;
  config?: ExtractionConfig;
}

export type ExtractionOutcome =
  | { status: "skipped"; reason: string }
  | { status: "succeeded"; runId: string; applied: AppliedOp[]; rejected: RejectedOp[] };

/** Trigram similarity above which an insert counts as restating a deleted fact. */
const TOMBSTONE_SIMILARITY = 0.6;

/**
 * One pass of the memory manager over a thread: read every message after the thread's cursor, show the model the
 * related memories and recent tombstones, validate its ops, and apply the valid ones together with the run record
 * and the cursor in one transaction. A retried or repeated job finds the cursor moved and changes nothing.
 */
export async function runExtraction(deps: ExtractionDeps, job: ExtractionJob): Promise<ExtractionOutcome> {
  const { ctx } = deps;
  const db = ctx.database.db;
  const userId = ctx.principal.userId;
  const [thread] = await asUser(db, userId, (tx) =>
    tx
      .select()
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.id, job.threadId))),
  );
  if (!thread) return { status: "skipped", reason: "the thread no longer exists" };
  const unread = await asUser(db, userId, (tx) =>
    tx
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.userId, userId),
          eq(messages.threadId, thread.id),
          gte(messages.position, thread.extractedThrough),
        ),
      )
      .orderBy(asc(messages.position)),
  );
  const pending = job.answeredOnly ? unread.slice(0, unread.findLastIndex((m) => m.role !== "user") + 1) : unread;
  if (pending.length === 0) {
    await dropOvertakenRun(ctx.database, userId, job.jobId);
    return { status: "skipped", reason: unread.length ? "the newest message is not answered yet" : "no new messages" };
  }

  const from = thread.extractedThrough;
  const through = pending.at(-1)!.position + 1;
  const runId = await openRun(ctx.database, userId, {
    ...job,
    from,
    through,
    modelId: deps.modelId,
    root: ctx.principal.root,
  });
  const config = deps.config ?? {};
  const newMessages: PromptMessage[] = pending.map((message) => ({
    id: message.id,
    role: message.role,
    text: textOfParts(message.parts),
  }));

  // A failure anywhere (the model, validation, the apply transaction) is recorded on the run before the queue retries.
  try {
    const context = await gatherContext(ctx, newMessages, config);
    const result = await generateText({
      model: deps.model,
      instructions: config.instructions ?? EXTRACTION_INSTRUCTIONS,
      prompt: buildExtractionPrompt({
        kinds: allowedKinds(ctx, config),
        allowed: allowedOps(config),
        existing: context.existing,
        deleted: context.deleted,
        messages: newMessages,
      }),
      output: Output.object({ schema: extractionOutputSchema, name: "memory_ops" }),
    });
    return await applyRun(deps, {
      runId,
      threadId: thread.id,
      from,
      through,
      output: result.output,
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
      shown: context.existing,
      newMessages,
    });
  } catch (error) {
    await recordFailure(ctx.database, userId, runId, error, job.finalAttempt);
    throw error;
  }
}

export class RunSupersededError extends Error {
  constructor() {
    super("Another run moved the thread's cursor meanwhile; this one will be retried from the new cursor.");
    this.name = "RunSupersededError";
  }
}

/** The run's ops, record and cursor move in one transaction, or none of them do. */
async function applyRun(
  deps: ExtractionDeps,
  run: {
    runId: string;
    threadId: string;
    from: number;
    through: number;
    output: ExtractionOutput;
    usage: { inputTokens?: number; outputTokens?: number };
    shown: PromptMemory[];
    newMessages: PromptMessage[];
  },
): Promise<ExtractionOutcome> {
  const { ctx } = deps;
  const config = deps.config ?? {};
  const userId = ctx.principal.userId;
  const { runId, from, through, output, usage, shown, newMessages } = run;
  const thread = { id: run.threadId };
  return asUserDatabase(ctx.database, userId, async (tx) => {
    const [locked] = await tx.db
      .select({ extractedThrough: threads.extractedThrough })
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.id, thread.id)))
      .for("update");
    if (!locked || locked.extractedThrough >= through) {
      // Kept, this run would stand as a second record of messages the other run extracted, without having changed
      // anything.
      await tx.db.delete(extractionRuns).where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, runId)));
      return { status: "skipped" as const, reason: "another run already extracted these messages" };
    }
    // A run that overlapped this one applied part of these messages: applying the rest on top would repeat it.
    if (locked.extractedThrough !== from) throw new RunSupersededError();
    const writer: MemoryContext = {
      ...ctx,
      database: tx,
      actor: { type: "extractor", id: deps.modelId },
      provenance: { source: "extraction", threadId: thread.id, runId },
    };
    const applied: AppliedOp[] = [];
    const rejected: RejectedOp[] = [];
    const validator = new OpValidator(writer, config, shown, newMessages);
    for (const op of output.ops) {
      const verdict = await validator.apply(op);
      if ("reason" in verdict) rejected.push({ op, reason: verdict.reason });
      else applied.push(verdict);
    }
    await tx.db
      .update(extractionRuns)
      .set({
        status: "succeeded",
        opsProposed: output.ops,
        opsApplied: applied,
        opsRejected: rejected,
        inputTokens: usage.inputTokens ?? null,
        outputTokens: usage.outputTokens ?? null,
        error: null,
        finishedAt: ctx.clock(),
      })
      .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, runId)));
    await tx.db
      .update(threads)
      .set({ extractedThrough: through })
      .where(and(eq(threads.userId, userId), eq(threads.id, thread.id)));
    return { status: "succeeded" as const, runId, applied, rejected };
  });
}

async function openRun(
  database: Database,
  userId: string,
  run: ExtractionJob & { from: number; through: number; modelId: string; root: readonly string[] },
): Promise<string> {
  // An earlier attempt of this job that did not finish is taken over. One that committed keeps its record: the job
  // is only back because its worker died before reporting it done, and it now reads messages that arrived since.
  const [existing] = await database.db
    .select({ id: extractionRuns.id })
    .from(extractionRuns)
    .where(
      and(
        eq(extractionRuns.userId, userId),
        eq(extractionRuns.jobId, run.jobId),
        ne(extractionRuns.status, "succeeded"),
      ),
    )
    .orderBy(desc(extractionRuns.createdAt))
    .limit(1);
  const values = {
    status: "running" as const,
    fromPosition: run.from,
    throughPosition: run.through,
    model: run.modelId,
    startedAt: new Date(),
    error: null,
  };
  if (existing) {
    await database.db
      .update(extractionRuns)
      .set({ ...values, attempts: sql`${extractionRuns.attempts} + 1` })
      .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, existing.id)));
    return existing.id;
  }
  const [created] = await database.db
    .insert(extractionRuns)
    .values({ ...values, userId, threadId: run.threadId, namespace: [...run.root], jobId: run.jobId, attempts: 1 })
    .returning({ id: extractionRuns.id });
  return created!.id;
}

/**
 * An earlier attempt of this job that opened a run and did not finish it (superseded, or its worker died) finds
 * its messages extracted by another run meanwhile: that unfinished run changed nothing and is no record to keep.
 */
async function dropOvertakenRun(database: Database, userId: string, jobId: string) {
  await database.db.delete(extractionRuns).where(openRunOfJob(userId, jobId));
}

async function recordFailure(database: Database, userId: string, runId: string, error: unknown, final: boolean) {
  const message = error instanceof Error ? error.message : String(error);
  await database.db
    .update(extractionRuns)
    .set({ status: final ? "failed" : "queued", error: message.slice(0, 2_000), finishedAt: final ? new Date() : null })
    .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, runId)));
}

/** Related active memories (searched with the newest user messages, then the most recent) and recent tombstones. */
async function gatherContext(ctx: MemoryContext, newMessages: PromptMessage[], config: ExtractionConfig) {
  const shownLimit = config.memoriesShown ?? 12;
  const queries = newMessages
    .filter((message) => message.role === "user" && message.text.trim())
    .slice(-(config.searchQueries ?? 3))
    .map((message) => message.text.slice(0, 2_000));
  const existing = new Map<string, PromptMemory>();
  const deleted = new Set<string>();
  for (const query of queries) {
    for (const { memory } of await searchMemories(ctx, { query, limit: shownLimit })) {
      existing.set(memory.id, { id: memory.id, version: memory.version, kind: memory.kind, text: memory.text });
    }
    for (const { memory } of await searchMemories(ctx, { query, limit: 5, status: "deleted" })) {
      if (memory.text) deleted.add(memory.text);
    }
  }
  // Per-user namespaces are small: fill up with the most recent memories, so a fact the new messages change without
  // sharing its words (moving from Porto to Lisbon) is still in view.
  for (const memory of (await listMemories(ctx, { limit: shownLimit })).memories) {
    if (existing.size >= shownLimit) break;
    existing.set(memory.id, { id: memory.id, version: memory.version, kind: memory.kind, text: memory.text });
  }
  if (config.profileMode) {
    const [profile] = (await listMemories(ctx, { kind: "profile", limit: 1 })).memories;
    if (profile)
      existing.set(profile.id, { id: profile.id, version: profile.version, kind: "profile", text: profile.text });
  }
  for (const memory of (await listMemories(ctx, { status: "deleted", limit: 10 })).memories) {
    if (memory.text) deleted.add(memory.text);
  }
  return { existing: [...existing.values()].slice(0, shownLimit), deleted: [...deleted] };
}

function allowedKinds(ctx: MemoryContext, config: ExtractionConfig): string[] {
  if (config.profileMode) return ["profile"];
  // The profile is kept by profile mode only; documents are other apps' raw values, not conversation facts.
  return (
    config.kinds ?? (ctx.kinds ?? defaultKinds).names().filter((name) => name !== "profile" && name !== "document")
  );
}

function allowedOps(config: ExtractionConfig): string[] {
  return [
    ...(config.enableInserts === false ? [] : ["insert"]),
    ...(config.enableUpdates === false ? [] : ["update"]),
    ...(config.enableDeletes === false ? [] : ["delete"]),
  ];
}

function textOfParts(parts: unknown[]): string {
  return parts
    .map((part) => {
      const { type, text } = (part ?? {}) as { type?: string; text?: unknown };
      return type === "text" && typeof text === "string" ? text : "";
    })
    .filter(Boolean)
    .join("\n");
}

const normalize = (text: string) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

/** Checks one proposed op against what the manager was shown and applies it, or says why not. */
class OpValidator {
  readonly #shown: Map<string, PromptMemory>;
  readonly #messages: Map<string, PromptMessage>;

  constructor(
    private readonly ctx: MemoryContext,
    private readonly config: ExtractionConfig,
    shown: PromptMemory[],
    newMessages: PromptMessage[],
  ) {
    this.#shown = new Map(shown.map((memory) => [memory.id, memory]));
    this.#messages = new Map(newMessages.map((message) => [message.id, message]));
  }

  async apply(op: ExtractionOp): Promise<AppliedOp | { reason: string }> {
    if (!allowedOps(this.config).includes(op.op)) return { reason: `${op.op} operations are disabled` };
    try {
      if (op.op === "insert") return await this.insert(op);
      if (op.op === "update") return await this.update(op);
      return await this.remove(op);
    } catch (error) {
      if (error instanceof MemoryError) return { reason: error.message };
      throw error;
    }
  }

  private checkSource(messageId: string, quote: string): string | null {
    const message = this.#messages.get(messageId);
    if (!message) return "the cited message is not among the new messages";
    if (!normalize(message.text).includes(normalize(quote))) return "the quote does not occur in the cited message";
    return null;
  }

  private async insert(op: Extract<ExtractionOp, { op: "insert" }>): Promise<AppliedOp | { reason: string }> {
    if (!allowedKinds(this.ctx, this.config).includes(op.kind)) return { reason: `kind "${op.kind}" is not allowed` };
    const problem = this.checkSource(op.messageId, op.quote);
    if (problem) return { reason: problem };
    const prepared = prepareContent(this.ctx.kinds ?? defaultKinds, op.kind, op.content);
    const suppressed = await this.matchingTombstone(prepared.text, prepared.contentHash);
    if (suppressed) return { reason: `deleted by the user: restates a deleted memory (${suppressed})` };
    const duplicate = await this.activeDuplicate(prepared.contentHash);
    if (duplicate && op.kind !== "profile") return { reason: `duplicate of active memory ${duplicate}: nothing to do` };
    const memory = await createMemory(this.ctx, {
      kind: op.kind,
      content: prepared.content,
      reason: "extracted from the conversation",
      provenance: { messageId: op.messageId, quote: op.quote },
    });
    return { op: "insert", memoryId: memory.id, version: memory.version, text: memory.text };
  }

  private async update(op: Extract<ExtractionOp, { op: "update" }>): Promise<AppliedOp | { reason: string }> {
    if (!this.#shown.has(op.id)) return { reason: "unknown id: not among the memories shown to the manager" };
    const problem = this.checkSource(op.messageId, op.quote);
    if (problem) return { reason: problem };
    const write = (expectedVersion: number) =>
      updateMemory(this.ctx, op.id, {
        content: op.content,
        expectedVersion,
        reason: op.reason,
        provenance: { messageId: op.messageId, quote: op.quote },
      });
    let memory: Awaited<ReturnType<typeof write>>;
    try {
      memory = await write(op.expectedVersion);
    } catch (error) {
      if (!(error instanceof MemoryConflictError)) throw error;
      // Someone changed it since the manager looked: re-read once and apply on top of the current version.
      const current = await getMemory(this.ctx, op.id);
      if (current.status !== "active") return { reason: "the memory was deleted meanwhile" };
      memory = await write(current.version);
    }
    return { op: "update", memoryId: memory.id, version: memory.version, text: memory.text };
  }

  private async remove(op: Extract<ExtractionOp, { op: "delete" }>): Promise<AppliedOp | { reason: string }> {
    if (!this.#shown.has(op.id)) return { reason: "unknown id: not among the memories shown to the manager" };
    const memory = await deleteMemory(this.ctx, op.id, { reason: op.reason });
    return { op: "delete", memoryId: memory.id, version: memory.version, text: memory.text };
  }

  /** A deleted memory in the caller's namespace with the same hash, or text this similar; returns its id. */
  private async matchingTombstone(text: string, hash: string): Promise<string | null> {
    const [row] = await this.ctx.database.rows<{ id: string }>(sql`
      select ${memories.id} as id from ${memories}
      where ${memories.userId} = ${this.ctx.principal.userId}
        and ${memories.status} = 'deleted'
        and (${memories.contentHash} = ${hash}
             or (${memories.text} is not null and similarity(${memories.text}, ${text}) >= ${TOMBSTONE_SIMILARITY}))
      limit 1`);
    return row?.id ?? null;
  }

  private async activeDuplicate(hash: string): Promise<string | null> {
    const [row] = await this.ctx.database.db
      .select({ id: memories.id })
      .from(memories)
      .where(
        and(
          eq(memories.userId, this.ctx.principal.userId),
          eq(memories.status, "active"),
          eq(memories.contentHash, hash),
        ),
      )
      .limit(1);
    return row?.id ?? null;
  }
}

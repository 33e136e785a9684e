import {
  APICallError,
  generateText,
  jsonSchema,
  type LanguageModel,
  NoObjectGeneratedError,
  Output,
  zodSchema,
} from "ai";
import { and, asc, desc, eq, gte, ne, sql } from "drizzle-orm";
import { describeModelFailure, isModelFailure } from "@/lib/ai/failures";
import { extractionRuns, memories, messages, threads } from "@/lib/db/schema";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { AppError } from "@/lib/errors";
import { logFailedAttempt } from "@/lib/log";
import {
  defaultKinds,
  factKey,
  MemoryConflictError,
  type MemoryContext,
  prepareContent,
  withUnit,
} from "@/lib/memory/core";
import {
  gatedCreate,
  gatedDelete,
  gatedUpdate,
  type Held,
  isHeld,
  matchingProposal,
  newReviewTurn,
  reviewReason,
} from "@/lib/memory/review";
import { searchMemories } from "@/lib/memory/search";
import {
  getMemory,
  listMemories,
  listRules,
  type Memory,
  type Rule,
  supersedeMemory,
  withoutForbiddenWords,
} from "@/lib/memory/store";
import { type Pricing, recordUsage, spentOnDay } from "@/lib/memory/usage";
import { recordWebhookEvents, runCompletedEvent } from "@/lib/memory/webhooks";
import {
  type AppliedOp,
  type ExtractionOp,
  type ManagerAnswer,
  managerAnswerSchema,
  parseManagerAnswer,
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
  /** Prices the manager's tokens for the cost ledger; absent, they are recorded without a cost. */
  pricing?: Pricing;
  /**
   * USD the user may spend per UTC day (chat and extraction together) before runs stop calling the model until the
   * next day; absent, no limit.
   */
  dailyBudgetUsd?: number;
}

export type ExtractionOutcome =
  | { status: "skipped"; reason: string; runId?: string }
  | { status: "failed"; runId: string; reason: string }
  | {
      status: "succeeded";
      runId: string;
      applied: AppliedOp[];
      rejected: RejectedOp[];
      /** Proposals the run left for the user's review (also listed in `rejected`, as held for review). */
      proposed: string[];
    };

type Verdict = AppliedOp | Held | { reason: string };

/** Trigram similarity above which an insert counts as restating a deleted fact. */
const TOMBSTONE_SIMILARITY = 0.6;

/**
 * One pass of the memory manager over a thread: read every message after the thread's cursor, show the model the
 * related memories and recent tombstones, validate its ops, and apply the valid ones together with the run record
 * and the cursor in one transaction. A retried or repeated job finds the cursor moved and changes nothing.
 */
export async function runExtraction(deps: ExtractionDeps, job: ExtractionJob): Promise<ExtractionOutcome> {
  const { ctx } = deps;
  const userId = ctx.principal.userId;
  const found = await asUser(ctx, async ({ db }) => {
    const [thread] = await db
      .select()
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.id, job.threadId)));
    if (!thread) return null;
    const unread = await db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.userId, userId),
          eq(messages.threadId, thread.id),
          gte(messages.position, thread.extractedThrough),
        ),
      )
      .orderBy(asc(messages.position));
    return { thread, unread };
  });
  if (!found) return { status: "skipped", reason: "the thread no longer exists" };
  const { thread, unread } = found;
  const pending = job.answeredOnly ? unread.slice(0, unread.findLastIndex((m) => isAnswer(m)) + 1) : unread;
  if (pending.length === 0) {
    await dropOvertakenRun(ctx, job.jobId);
    return { status: "skipped", reason: unread.length ? "the newest message is not answered yet" : "no new messages" };
  }

  const from = thread.extractedThrough;
  const through = pending.at(-1)!.position + 1;
  const run = { ...job, from, through, modelId: deps.modelId, root: ctx.principal.root };
  const overBudget = await budgetReached(ctx, deps.dailyBudgetUsd);
  if (overBudget) return skipRun(ctx, run, overBudget);
  const { id: runId, attempt } = await openRun(ctx, run);
  const config = deps.config ?? {};
  // What the assistant said before the provider broke off is not its answer: the manager never reads it as one.
  const newMessages: PromptMessage[] = pending
    .filter((message) => !isIncomplete(message))
    .map((message) => ({
      id: message.id,
      role: message.role,
      text: textOfParts(message.parts),
      createdAt: message.createdAt.toISOString(),
    }));

  // A failure anywhere (the model, validation, the apply transaction) is recorded on the run before the queue retries.
  try {
    const context = await gatherContext(ctx, newMessages, config);
    const rules = await listRules(ctx);
    const { answer, usage } = await askManager(deps.model, {
      instructions: config.instructions ?? EXTRACTION_INSTRUCTIONS,
      prompt: buildExtractionPrompt({
        kinds: allowedKinds(ctx, config),
        allowed: allowedOps(config),
        ...(rules.length > 0 ? { rules: rules.map((rule) => ({ text: rule.text, terms: rule.terms })) } : {}),
        existing: context.existing,
        deleted: context.deleted,
        messages: newMessages,
      }),
    });
    // Spent whatever happens next (an unreadable answer, a failed apply): the ledger records every answered call.
    await recordUsage(ctx, {
      kind: "extraction",
      model: deps.modelId,
      usage,
      costUsd: deps.pricing?.(usage) ?? null,
      threadId: thread.id,
      runId,
    });
    if (answer.unreadable) throw new UnreadableAnswerError(answer.unreadable);
    return await applyRun(deps, {
      runId,
      threadId: thread.id,
      from,
      through,
      answer,
      usage,
      shown: context.existing,
      newMessages,
      rules,
    });
  } catch (error) {
    // Asking again would get the same answer (a request the provider refuses as it is): no retry, the run says why.
    const final = job.finalAttempt || isDeterministicFailure(error);
    logFailedAttempt("memory extraction attempt failed", error, {
      run: runId,
      user: userId,
      model: deps.modelId,
      attempt,
      retried: !final,
    });
    await recordFailure(ctx, runId, error, final);
    if (final && !job.finalAttempt) return { status: "failed", runId, reason: describeFailure(error) };
    throw error;
  }
}

/**
 * The manager's answer, read op by op (parseManagerAnswer). The provider is given the wire schema, which every
 * strict mode accepts, but the answer is not held to it as a whole: a model that adds a field to one op, sends 200
 * ops, fences its JSON or is cut off mid-list still gets its valid ops applied.
 */
export async function askManager(
  model: LanguageModel,
  request: { instructions: string; prompt: string },
): Promise<{ answer: ManagerAnswer; usage: { inputTokens?: number; outputTokens?: number } }> {
  const wire = zodSchema(managerAnswerSchema);
  try {
    const result = await generateText({
      model,
      instructions: request.instructions,
      prompt: request.prompt,
      output: Output.object({
        schema: jsonSchema<unknown>(() => wire.jsonSchema, { validate: (value) => ({ success: true, value }) }),
        name: "memory_ops",
      }),
    });
    return { answer: parseManagerAnswer(result.output), usage: usageOf(result.usage) };
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    return { answer: parseManagerAnswer(error.text ?? ""), usage: usageOf(error.usage) };
  }
}

const usageOf = (usage: { inputTokens?: number; outputTokens?: number } | undefined) => ({
  inputTokens: usage?.inputTokens,
  outputTokens: usage?.outputTokens,
});

/** Nothing could be read from the manager's answer (see ManagerAnswer.unreadable). */
export class UnreadableAnswerError extends Error {
  constructor(why: string) {
    super(`The manager's answer could not be read: ${why}.`);
    this.name = "UnreadableAnswerError";
  }
}

/**
 * A failure that the same request would meet again: the provider refusing it as it is (a 4xx other than timeout,
 * conflict and rate limiting) or an answer with nothing to read. Network faults, 429 and 5xx are worth a retry.
 */
export function isDeterministicFailure(error: unknown): boolean {
  if (error instanceof UnreadableAnswerError) return true;
  if (!APICallError.isInstance(error)) return false;
  const status = error.statusCode;
  return status !== undefined && status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}

/** The run's reason as its owner reads it: a provider fault in plain words, the app's own failures as they say. */
function describeFailure(error: unknown): string {
  if (isModelFailure(error)) return describeModelFailure(error);
  return error instanceof Error ? error.message : String(error);
}

export class RunSupersededError extends AppError {
  constructor() {
    super("conflict", "Another run moved the thread's cursor meanwhile; this one will be retried from the new cursor.");
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
    answer: ManagerAnswer;
    usage: { inputTokens?: number; outputTokens?: number };
    shown: PromptMemory[];
    newMessages: PromptMessage[];
    rules: readonly Rule[];
  },
): Promise<ExtractionOutcome> {
  const { ctx } = deps;
  const config = deps.config ?? {};
  const userId = ctx.principal.userId;
  const { runId, from, through, answer, usage, shown, newMessages } = run;
  const thread = { id: run.threadId };
  const extractor: MemoryContext = {
    ...ctx,
    actor: { type: "extractor", id: deps.modelId },
    provenance: { source: "extraction", threadId: thread.id, runId },
  };
  return withUnit(extractor, async (writer) => {
    const tx = writer.unit!;
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
    const applied: AppliedOp[] = [];
    const unapplied: RejectedOp[] = [...answer.rejected];
    const proposed: string[] = [];
    const validator = new OpValidator(writer, config, shown, newMessages);
    for (const op of answer.ops) {
      const verdict = await validator.apply(op);
      if ("reason" in verdict) unapplied.push({ op, reason: verdict.reason });
      else if (isHeld(verdict)) {
        proposed.push(verdict.proposal.id);
        unapplied.push({
          op,
          reason: `held for the user's review as proposal ${verdict.proposal.id} (${verdict.why})`,
        });
      } else applied.push(verdict);
    }
    const rejected = unapplied.map((entry) => ({ ...entry, op: withoutForbiddenWords(entry.op, run.rules) }));
    await tx.db
      .update(extractionRuns)
      .set({
        status: "succeeded",
        opsProposed: answer.proposed.map((op) => withoutForbiddenWords(op, run.rules)),
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
    await recordRunCompleted(ctx, tx, { runId, threadId: thread.id, status: "succeeded", applied, rejected });
    return { status: "succeeded" as const, runId, applied, rejected, proposed };
  });
}

type RunOpening = ExtractionJob & { from: number; through: number; modelId: string; root: readonly string[] };

/** Why the run may not call the model now: the user's spend today is at or over the budget; null when it may. */
async function budgetReached(ctx: MemoryContext, budgetUsd: number | undefined): Promise<string | null> {
  if (budgetUsd === undefined) return null;
  const spent = await spentOnDay(ctx, ctx.clock());
  if (spent < budgetUsd) return null;
  return `daily budget of ${formatUsd(budgetUsd)} reached (${formatUsd(spent)} spent today, UTC): background extraction resumes tomorrow`;
}

const formatUsd = (value: number) => `$${value >= 0.01 ? value.toFixed(2) : value.toPrecision(2)}`;

/**
 * Records the run as skipped, with the reason, without calling the model. The cursor stays, so the first run after
 * the budget resets reads these messages too.
 */
async function skipRun(ctx: MemoryContext, run: RunOpening, reason: string): Promise<ExtractionOutcome> {
  const runId = await withUnit(ctx, async (tx) => {
    const { id } = await openRun(tx, run);
    await asUser(tx, ({ db }) =>
      db
        .update(extractionRuns)
        .set({ status: "skipped", error: reason, finishedAt: ctx.clock() })
        .where(and(eq(extractionRuns.userId, ctx.principal.userId), eq(extractionRuns.id, id))),
    );
    return id;
  });
  return { status: "skipped", reason, runId };
}

async function openRun(ctx: MemoryContext, run: RunOpening): Promise<{ id: string; attempt: number }> {
  const userId = ctx.principal.userId;
  return asUser(ctx, async ({ db }) => {
    // An earlier attempt of this job that did not finish is taken over. One that committed keeps its record: the job
    // is only back because its worker died before reporting it done, and it now reads messages that arrived since.
    const [existing] = await db
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
      startedAt: ctx.clock(),
      error: null,
    };
    if (existing) {
      const [updated] = await db
        .update(extractionRuns)
        .set({ ...values, attempts: sql`${extractionRuns.attempts} + 1` })
        .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.id, existing.id)))
        .returning({ attempts: extractionRuns.attempts });
      return { id: existing.id, attempt: updated!.attempts };
    }
    const [created] = await db
      .insert(extractionRuns)
      .values({ ...values, userId, threadId: run.threadId, namespace: [...run.root], jobId: run.jobId, attempts: 1 })
      .returning({ id: extractionRuns.id });
    return { id: created!.id, attempt: 1 };
  });
}

/**
 * An earlier attempt of this job that opened a run and did not finish it (superseded, or its worker died) finds
 * its messages extracted by another run meanwhile: that unfinished run changed nothing and is no record to keep.
 */
async function dropOvertakenRun(ctx: MemoryContext, jobId: string) {
  await asUser(ctx, ({ db }) => db.delete(extractionRuns).where(openRunOfJob(ctx.principal.userId, jobId)));
}

async function recordFailure(ctx: MemoryContext, runId: string, error: unknown, final: boolean) {
  const message = describeFailure(error);
  await asUser(ctx, async (unit) => {
    const [run] = await unit.db
      .update(extractionRuns)
      .set({
        status: final ? "failed" : "queued",
        error: message.slice(0, 2_000),
        finishedAt: final ? ctx.clock() : null,
      })
      .where(and(eq(extractionRuns.userId, ctx.principal.userId), eq(extractionRuns.id, runId)))
      .returning({ threadId: extractionRuns.threadId });
    if (final && run) await recordRunCompleted(ctx, unit, { runId, threadId: run.threadId, status: "failed" });
  });
}

/** Records the run's completion event in the unit that finishes it. */
async function recordRunCompleted(
  ctx: MemoryContext,
  unit: UnitOfWork,
  run: { runId: string; threadId: string; status: "succeeded" | "failed"; applied?: unknown[]; rejected?: unknown[] },
) {
  const counts = run.applied ? { applied: run.applied.length, rejected: run.rejected?.length ?? 0 } : {};
  const event = runCompletedEvent(
    { runId: run.runId, threadId: run.threadId, status: run.status, ...counts },
    ctx.clock(),
  );
  await recordWebhookEvents(unit, [event], ctx.scheduleWebhookDeliveries);
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
  const now = ctx.clock().getTime();
  for (const memory of (await listMemories(ctx, { limit: shownLimit })).memories) {
    if (existing.size >= shownLimit) break;
    // A superseded fact is history: the manager is not to rewrite it (search leaves these out already).
    if (memory.validTo && memory.validTo.getTime() <= now) continue;
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

/** An assistant message the chat marked incomplete (the stream broke off or was stopped). */
function isIncomplete(message: { role: string; metadata: Record<string, unknown> | null }): boolean {
  return message.role !== "user" && message.metadata?.incomplete === true;
}

/** A message that ends an exchange: the assistant's, and complete. */
function isAnswer(message: { role: string; metadata: Record<string, unknown> | null }): boolean {
  return message.role !== "user" && !isIncomplete(message);
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

/**
 * Checks one proposed op against what the manager was shown and what the user said, and applies it, or says why
 * not. Every op that writes must rest on the user's own words (a quote from one of their new messages: an
 * assistant's "since you are allergic to peanuts…" is no evidence); a write never restates a deleted fact; an update
 * or delete applies only to the version the manager was shown, so a newer edit (the user's own) always stands; a fact
 * the user already has is not written twice.
 */
class OpValidator {
  readonly #shown: Map<string, PromptMemory>;
  readonly #messages: Map<string, PromptMessage>;
  readonly #turn = newReviewTurn();

  constructor(
    private readonly ctx: MemoryContext,
    private readonly config: ExtractionConfig,
    shown: PromptMemory[],
    newMessages: PromptMessage[],
  ) {
    this.#shown = new Map(shown.map((memory) => [memory.id, memory]));
    this.#messages = new Map(newMessages.map((message) => [message.id, message]));
  }

  async apply(op: ExtractionOp): Promise<Verdict> {
    if (!allowedOps(this.config).includes(op.op)) return { reason: `${op.op} operations are disabled` };
    try {
      const problem = this.checkSource(op.messageId, op.quote);
      if (problem) return { reason: problem };
      if (op.op === "insert") return await this.insert(op);
      if (op.op === "update") return await this.update(op);
      return await this.remove(op);
    } catch (error) {
      if (error instanceof AppError) return { reason: error.message };
      throw error;
    }
  }

  /** The op's evidence: an exact quote from a new message the user wrote. */
  private checkSource(messageId: string, quote: string): string | null {
    const message = this.#messages.get(messageId);
    if (!message) return "the cited message is not among the new messages";
    if (message.role !== "user") {
      return `the cited message is the ${message.role}'s, not the user's: only the user's own words are evidence`;
    }
    if (!factKey(message.text).includes(factKey(quote))) return "the quote does not occur in the cited message";
    return null;
  }

  /** The memory as the manager was shown it, if `expectedVersion` is that version. */
  private shownVersion(id: string, expectedVersion?: number): PromptMemory | { reason: string } {
    const shown = this.#shown.get(id);
    if (!shown) return { reason: "unknown id: not among the memories shown to the manager" };
    if (expectedVersion !== undefined && expectedVersion !== shown.version) {
      return { reason: `claims version ${expectedVersion}, but the manager was shown version ${shown.version}` };
    }
    return shown;
  }

  /** Why a write at the shown version failed because the memory changed since: the newer version stands. */
  private async changedSince(id: string, shown: PromptMemory, error: unknown): Promise<{ reason: string }> {
    if (!(error instanceof MemoryConflictError)) throw error;
    const current = await getMemory(this.ctx, id);
    const by = current.actor.type === "user" ? "the user" : `${current.actor.type} ${current.actor.id}`;
    return {
      reason: `the memory changed after the manager read it (shown version ${shown.version}, now version ${current.version} by ${by}): the newer version stands`,
    };
  }

  private async insert(op: Extract<ExtractionOp, { op: "insert" }>): Promise<Verdict> {
    if (!allowedKinds(this.ctx, this.config).includes(op.kind)) return { reason: `kind "${op.kind}" is not allowed` };
    const prepared = prepareContent(this.ctx.kinds ?? defaultKinds, op.kind, op.content);
    const suppressed = await this.matchingTombstone(prepared.text, prepared.contentHash);
    if (suppressed) return { reason: `deleted by the user: restates a deleted memory (${suppressed})` };
    const proposal = await this.matchingProposal(prepared.text, prepared.contentHash);
    if (proposal) return proposal;
    const outcome = await gatedCreate(this.ctx, this.#turn, {
      kind: op.kind,
      content: prepared.content,
      validFrom: op.validFrom,
      validTo: op.validTo,
      reason: "extracted from the conversation",
      provenance: { messageId: op.messageId, quote: op.quote },
    });
    if (isHeld(outcome)) return outcome;
    const { memory, created } = outcome;
    if (!created) return { reason: `already remembered as memory ${memory.id}: nothing to do` };
    return { op: "insert", memoryId: memory.id, version: memory.version, text: memory.text };
  }

  private async update(op: Extract<ExtractionOp, { op: "update" }>): Promise<Verdict> {
    const shown = this.shownVersion(op.id, op.expectedVersion);
    if ("reason" in shown) return shown;
    const prepared = prepareContent(this.ctx.kinds ?? defaultKinds, shown.kind, op.content);
    if (factKey(prepared.text) === factKey(shown.text))
      return { reason: "the memory already says this: nothing to do" };
    const suppressed = await this.matchingTombstone(prepared.text, prepared.contentHash);
    if (suppressed) return { reason: `deleted by the user: the new content restates a deleted memory (${suppressed})` };
    const proposal = await this.matchingProposal(prepared.text, prepared.contentHash);
    if (proposal) return proposal;
    // A change in the world closes the old fact and starts a new one, unless review holds the update for the user.
    if (op.validFrom && !(await reviewReason(this.ctx, this.#turn, "update"))) {
      return this.supersede(op, op.validFrom, shown, prepared.content);
    }
    return this.atShownVersion(op, shown, (change) =>
      gatedUpdate(this.ctx, this.#turn, op.id, prepared.content, change),
    );
  }

  /** The fact changed in the world at `validFrom`: the shown memory is closed then, a new one holds the new value. */
  private async supersede(
    op: Extract<ExtractionOp, { op: "update" }>,
    validFrom: string,
    shown: PromptMemory,
    content: unknown,
  ): Promise<Verdict> {
    try {
      const { closed, created } = await supersedeMemory(this.ctx, op.id, {
        content,
        validFrom,
        expectedVersion: shown.version,
        reason: op.reason,
        provenance: { messageId: op.messageId, quote: op.quote },
      });
      return {
        op: "update",
        memoryId: closed.id,
        version: closed.version,
        text: closed.text,
        supersededBy: { memoryId: created.id, version: created.version, text: created.text },
      };
    } catch (error) {
      if (error instanceof MemoryConflictError) return this.changedSince(op.id, shown, error);
      throw error;
    }
  }

  private async remove(op: Extract<ExtractionOp, { op: "delete" }>): Promise<Verdict> {
    const shown = this.shownVersion(op.id);
    if ("reason" in shown) return shown;
    return this.atShownVersion(op, shown, (change) => gatedDelete(this.ctx, this.#turn, op.id, change));
  }

  /** Writes `op` as a change of the version the manager was shown; a newer version stands (see changedSince). */
  private async atShownVersion(
    op: Extract<ExtractionOp, { op: "update" | "delete" }>,
    shown: PromptMemory,
    write: (change: {
      expectedVersion: number;
      reason: string;
      provenance: { messageId: string; quote: string };
    }) => Promise<{ memory: Memory } | Held>,
  ): Promise<Verdict> {
    try {
      const outcome = await write({
        expectedVersion: shown.version,
        reason: op.reason,
        provenance: { messageId: op.messageId, quote: op.quote },
      });
      if (isHeld(outcome)) return outcome;
      const { memory } = outcome;
      return { op: op.op, memoryId: memory.id, version: memory.version, text: memory.text };
    } catch (error) {
      return this.changedSince(op.id, shown, error);
    }
  }

  /** The user rejected this fact in review (suppressed like a tombstone), or it already awaits their review. */
  private async matchingProposal(text: string, hash: string): Promise<{ reason: string } | null> {
    const found = await asUser(this.ctx, (unit) =>
      matchingProposal(unit, { text, contentHash: hash }, TOMBSTONE_SIMILARITY),
    );
    if (!found) return null;
    if (found.status === "pending") return { reason: `already awaiting the user's review as proposal ${found.id}` };
    return { reason: `rejected by the user in review: restates a rejected proposal (${found.id})` };
  }

  /** A deleted memory in the caller's namespace with the same hash, or text this similar; returns its id. */
  private async matchingTombstone(text: string, hash: string): Promise<string | null> {
    const [row] = await asUser(this.ctx, (unit) =>
      unit.rows<{ id: string }>(sql`
      select ${memories.id} as id from ${memories}
      where ${memories.userId} = ${this.ctx.principal.userId}
        and ${memories.status} = 'deleted'
        and (${memories.contentHash} = ${hash}
             or (${memories.text} is not null and similarity(${memories.text}, ${text}) >= ${TOMBSTONE_SIMILARITY}))
      limit 1`),
    );
    return row?.id ?? null;
  }
}

import type { LanguageModel } from "ai";
import { and, asc, eq, gte } from "drizzle-orm";
import { extractionRuns, messages, threads } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import { AppError } from "@/lib/errors";
import { logFailedAttempt } from "@/lib/log";
import { type MemoryContext, withUnit } from "@/lib/memory/core";
import { listRules, type Rule, withoutForbiddenWords } from "@/lib/memory/store";
import { type Pricing, recordUsage, spentOnDay } from "@/lib/memory/usage";
import { askManager, isDeterministicFailure, UnreadableAnswerError } from "./manager";
import {
  allowedKinds,
  allowedOps,
  type ExtractionConfig,
  gatherContext,
  isAnswer,
  isIncomplete,
  textOfParts,
} from "./manager-input";
import { isHeld, OpValidator } from "./op-validator";
import type { AppliedOp, ManagerAnswer, RejectedOp } from "./ops";
import { buildExtractionPrompt, EXTRACTION_INSTRUCTIONS, type PromptMemory, type PromptMessage } from "./prompt";
import { describeFailure, dropOvertakenRun, openRun, type RunOpening, recordFailure, recordRunCompleted } from "./runs";

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

/**
 * One pass of the memory manager over a thread: read every message after the thread's cursor, show the model the
 * related memories and recent tombstones, validate its ops, and apply the valid ones together with the run record
 * and the cursor in one transaction. A retried or repeated job finds the cursor moved and changes nothing.
 */
export async function runExtraction(deps: ExtractionDeps, job: ExtractionJob): Promise<ExtractionOutcome> {
  const { ctx } = deps;
  const userId = ctx.principal.userId;
  const found = await readUnextracted(ctx, job.threadId);
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
  const newMessages = promptMessages(pending);

  // A failure anywhere (the model, validation, the apply transaction) is recorded on the run before the queue retries.
  try {
    return await askAndApply(deps, { runId, threadId: thread.id, from, through, newMessages });
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

type MessageRow = typeof messages.$inferSelect;

/** The thread and its messages from its cursor on, or null when the caller has no such thread. */
async function readUnextracted(
  ctx: MemoryContext,
  threadId: string,
): Promise<{ thread: typeof threads.$inferSelect; unread: MessageRow[] } | null> {
  const userId = ctx.principal.userId;
  return asUser(ctx, async ({ db }) => {
    const [thread] = await db
      .select()
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.id, threadId)));
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
}

/** The messages as the manager reads them. */
function promptMessages(pending: readonly MessageRow[]): PromptMessage[] {
  // What the assistant said before the provider broke off is not its answer: the manager never reads it as one.
  return pending
    .filter((message) => !isIncomplete(message))
    .map((message) => ({
      id: message.id,
      role: message.role,
      text: textOfParts(message.parts),
      createdAt: message.createdAt.toISOString(),
    }));
}

/** Shows the manager the messages with what it should know, records what the call spent, and applies its answer. */
async function askAndApply(
  deps: ExtractionDeps,
  run: { runId: string; threadId: string; from: number; through: number; newMessages: PromptMessage[] },
): Promise<ExtractionOutcome> {
  const { ctx } = deps;
  const { runId, newMessages } = run;
  const config = deps.config ?? {};
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
    threadId: run.threadId,
    runId,
  });
  if (answer.unreadable) throw new UnreadableAnswerError(answer.unreadable);
  return applyRun(deps, { ...run, answer, usage, shown: context.existing, rules });
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

import { generateText, jsonSchema, type LanguageModel, NoObjectGeneratedError, Output, zodSchema } from "ai";
import { and, eq, inArray, isNull, ne, or } from "drizzle-orm";
import { describeModelFailure, isModelFailure } from "@/lib/ai/failures";
import { answerFeedback, messages, optimizerRuns } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
import { logFailedAttempt } from "@/lib/log";
import { type MemoryContext, withUnit } from "@/lib/memory/core";
import {
  changeInstructions,
  type Feedback,
  handWrittenLines,
  instructionHistory,
  listFeedback,
} from "@/lib/memory/procedural";
import { addToPendingInstructionsChange, instructionsReviewReason, propose } from "@/lib/memory/review";
import { type Pricing, recordUsage, spentOnDay } from "@/lib/memory/usage";
import { modelTelemetry } from "@/lib/telemetry";
import { checkAnswer, type Verdict } from "./answer";
import {
  buildOptimizerPrompt,
  OPTIMIZER_INSTRUCTIONS,
  type OptimizerInput,
  optimizerAnswerSchema,
  type PromptFeedback,
} from "./prompt";

export interface OptimizerDeps {
  /** The user's context; the pass writes as the `extractor` actor (the extraction model). */
  ctx: MemoryContext;
  model: LanguageModel;
  modelId: string;
  pricing?: Pricing;
  /** As for extraction: USD per UTC day, chat and background together, before passes stop calling the model. */
  dailyBudgetUsd?: number;
}

export type OptimizerOutcome =
  | { status: "skipped"; reason: string; runId?: string }
  | { status: "failed"; runId: string; reason: string }
  | {
      status: "succeeded";
      runId: string;
      outcome: "applied" | "proposed" | "unchanged" | "rejected";
      version?: number;
      proposalId?: string;
      rejected: string[];
    };

/** Feedback read per pass; more waits for the next one. */
const BATCH = 20;
/** Characters of a question or an answer shown per piece of feedback. */
const EXCERPT = 2_000;

/**
 * One optimizer pass (docs/memory-model.md): read the user's feedback no pass has read yet with the answers it rates,
 * ask the model for new instructions, check its answer, then apply it (review off) or leave it as an `instructions`
 * proposal, marking the feedback read, in one transaction with the run record.
 */
export async function runOptimizer(deps: OptimizerDeps, job: { jobId: string; finalAttempt: boolean }) {
  const { ctx } = deps;
  const { feedback: unread } = await listFeedback(ctx, { unread: true, limit: BATCH });
  if (unread.length === 0) return { status: "skipped", reason: "no new feedback" } satisfies OptimizerOutcome;
  const history = await instructionHistory(ctx);
  const current = history[0];
  const input: OptimizerInput = {
    current: { version: current?.version ?? 0, text: current?.text ?? "", handWritten: handWrittenLines(history) },
    feedback: await withAnswers(ctx, unread),
  };
  const runId = await openRun(ctx, job.jobId, unread, input.current.version, deps.modelId);
  const budget = await budgetReached(ctx, deps.dailyBudgetUsd);
  if (budget) {
    await finishRun(ctx, runId, { status: "skipped", error: budget });
    return { status: "skipped", reason: budget, runId } satisfies OptimizerOutcome;
  }
  try {
    const { answer, usage } = await askOptimizer(deps.model, buildOptimizerPrompt(input));
    await recordUsage(ctx, {
      kind: "extraction",
      model: deps.modelId,
      usage,
      costUsd: deps.pricing?.(usage) ?? null,
      runId,
    });
    const verdict = checkAnswer(answer, input);
    return await settle(deps, { runId, input, verdict, answer, usage, read: unread.map((item) => item.id) });
  } catch (error) {
    const final = job.finalAttempt;
    logFailedAttempt("instructions optimizer attempt failed", error, {
      run: runId,
      user: ctx.principal.userId,
      model: deps.modelId,
      retried: !final,
    });
    await finishRun(ctx, runId, { status: final ? "failed" : "running", error: describeFailure(error) });
    if (final) return { status: "failed", runId, reason: describeFailure(error) } satisfies OptimizerOutcome;
    throw error;
  }
}

async function askOptimizer(model: LanguageModel, prompt: string) {
  const wire = zodSchema(optimizerAnswerSchema);
  try {
    const result = await generateText({
      model,
      instructions: OPTIMIZER_INSTRUCTIONS,
      prompt,
      telemetry: modelTelemetry("optimizer"),
      output: Output.object({
        schema: jsonSchema<unknown>(() => wire.jsonSchema, { validate: (value) => ({ success: true, value }) }),
        name: "instructions_change",
      }),
    });
    return { answer: result.output as unknown, usage: usageOf(result.usage) };
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    return { answer: (error.text ?? "") as unknown, usage: usageOf(error.usage) };
  }
}

const usageOf = (usage: { inputTokens?: number; outputTokens?: number } | undefined) => ({
  inputTokens: usage?.inputTokens,
  outputTokens: usage?.outputTokens,
});

async function settle(
  deps: OptimizerDeps,
  pass: {
    runId: string;
    input: OptimizerInput;
    verdict: Verdict;
    answer: unknown;
    usage: { inputTokens?: number; outputTokens?: number };
    read: string[];
  },
): Promise<OptimizerOutcome> {
  try {
    return await apply(deps, pass);
  } catch (error) {
    if (!(error instanceof OvertakenError)) throw error;
    const reason = "another optimizer pass read this feedback first";
    await finishRun(deps.ctx, pass.runId, { status: "skipped", error: reason });
    return { status: "skipped", reason, runId: pass.runId };
  }
}

/** Rolls the pass's transaction back: nothing of it may stand. */
class OvertakenError extends Error {}

async function apply(deps: OptimizerDeps, pass: Parameters<typeof settle>[1]): Promise<OptimizerOutcome> {
  const { ctx } = deps;
  const { runId, verdict } = pass;
  return withUnit(ctx, async (tx) => {
    // Claimed first, under the user's write lock: a pass that overlapped this one (another worker) and read the same
    // feedback has acted on it already, and this one then changes nothing.
    const claimed = await asUser(tx, async (unit) => {
      await unit.serializeUserWrites();
      return unit.db
        .update(answerFeedback)
        .set({ optimizerRunId: runId })
        .where(
          and(
            eq(answerFeedback.userId, ctx.principal.userId),
            inArray(answerFeedback.id, pass.read),
            isNull(answerFeedback.optimizerRunId),
          ),
        )
        .returning({ id: answerFeedback.id });
    });
    if (claimed.length < pass.read.length) throw new OvertakenError();
    let outcome: OptimizerOutcome = {
      status: "succeeded",
      runId,
      outcome: verdict.kind === "change" ? "applied" : verdict.kind,
      rejected: verdict.kind === "rejected" ? verdict.reasons : [],
    };
    if (verdict.kind === "change") {
      const { change } = verdict;
      if (!(await instructionsReviewReason(tx))) {
        const version = await changeInstructions(tx, {
          text: change.text,
          expectedVersion: pass.input.current.version,
          changedBy: { type: "optimizer", id: deps.modelId },
          reason: change.reason,
          feedbackIds: change.feedbackIds,
          runId,
        });
        outcome = { ...outcome, outcome: "applied", version: version.version };
      } else {
        // The same change already waiting (an earlier pass read feedback saying the same) stays the one to decide,
        // grounded in this pass's feedback as well.
        const pending = await addToPendingInstructionsChange(
          tx,
          pass.input.current.version,
          change.text,
          change.feedbackIds,
        );
        const proposal =
          pending ??
          (await propose(tx, {
            op: "instructions",
            namespace: ctx.principal.root,
            expectedVersion: pass.input.current.version,
            text: change.text,
            content: { feedbackIds: change.feedbackIds },
            reason: change.reason,
            provenance: { runId },
          }));
        outcome = { ...outcome, outcome: pending ? "unchanged" : "proposed", proposalId: proposal.id };
      }
    }
    const done = outcome as Extract<OptimizerOutcome, { status: "succeeded" }>;
    await finishRun(tx, runId, {
      status: "succeeded",
      outcome: done.outcome,
      proposed: pass.answer ?? null,
      rejected: done.rejected.map((reason) => ({ reason })),
      proposalId: done.proposalId ?? null,
      appliedVersion: done.version ?? null,
      inputTokens: pass.usage.inputTokens ?? null,
      outputTokens: pass.usage.outputTokens ?? null,
    });
    return outcome;
  });
}

/** Each piece of feedback with the answer it rates and the question before it, both cut to an excerpt. */
async function withAnswers(ctx: MemoryContext, feedback: Feedback[]): Promise<PromptFeedback[]> {
  const userId = ctx.principal.userId;
  const rows = await asUser(ctx, async ({ db }) => {
    const answers = await db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.userId, userId),
          inArray(
            messages.id,
            feedback.map((item) => item.messageId),
          ),
        ),
      );
    const questions =
      answers.length === 0
        ? []
        : await db
            .select()
            .from(messages)
            .where(
              and(
                eq(messages.userId, userId),
                or(
                  ...answers.map((answer) =>
                    and(eq(messages.threadId, answer.threadId), eq(messages.position, answer.position - 1)),
                  ),
                ),
              ),
            );
    return { answers, questions };
  });
  const answerOf = new Map(rows.answers.map((row) => [row.id, row]));
  const questionOf = (threadId: string, position: number) =>
    rows.questions.find((row) => row.threadId === threadId && row.position === position - 1);
  return feedback.map((item) => {
    const answer = answerOf.get(item.messageId);
    const question = answer ? questionOf(answer.threadId, answer.position) : undefined;
    return {
      id: item.id,
      rating: item.rating,
      comment: item.comment,
      question: question?.role === "user" ? textOf(question.parts) : "",
      answer: answer ? textOf(answer.parts) : "",
    };
  });
}

function textOf(parts: unknown[]): string {
  return parts
    .map((part) => (part && typeof part === "object" && (part as { type?: unknown }).type === "text" ? part : null))
    .map((part) => String((part as { text?: unknown } | null)?.text ?? ""))
    .filter(Boolean)
    .join("\n")
    .slice(0, EXCERPT);
}

/** An earlier attempt of this job that did not finish is taken over, as extraction runs are. */
async function openRun(ctx: MemoryContext, jobId: string, read: Feedback[], fromVersion: number, modelId: string) {
  const userId = ctx.principal.userId;
  return asUser(ctx, async ({ db }) => {
    const values = {
      status: "running" as const,
      model: modelId,
      feedbackIds: read.map((item) => item.id),
      fromVersion,
      error: null,
    };
    const [taken] = await db
      .update(optimizerRuns)
      .set(values)
      .where(
        and(eq(optimizerRuns.userId, userId), eq(optimizerRuns.jobId, jobId), ne(optimizerRuns.status, "succeeded")),
      )
      .returning({ id: optimizerRuns.id });
    if (taken) return taken.id;
    const [created] = await db
      .insert(optimizerRuns)
      .values({ ...values, userId, jobId, createdAt: ctx.clock() })
      .returning({ id: optimizerRuns.id });
    return (created as { id: string }).id;
  });
}

async function finishRun(
  ctx: MemoryContext,
  runId: string,
  values: Partial<typeof optimizerRuns.$inferInsert> & { status: "running" | "succeeded" | "failed" | "skipped" },
) {
  await asUser(ctx, ({ db }) =>
    db
      .update(optimizerRuns)
      .set({
        ...values,
        ...(values.error ? { error: values.error.slice(0, 2_000) } : {}),
        finishedAt: values.status === "running" ? null : ctx.clock(),
      })
      .where(and(eq(optimizerRuns.userId, ctx.principal.userId), eq(optimizerRuns.id, runId))),
  );
}

async function budgetReached(ctx: MemoryContext, budgetUsd: number | undefined): Promise<string | null> {
  if (budgetUsd === undefined) return null;
  const spent = await spentOnDay(ctx, ctx.clock());
  return spent < budgetUsd ? null : "daily budget reached: the instructions optimizer resumes tomorrow (UTC)";
}

function describeFailure(error: unknown): string {
  if (isModelFailure(error)) return describeModelFailure(error);
  return error instanceof Error ? error.message : String(error);
}

import { generateText, jsonSchema, type LanguageModel, NoObjectGeneratedError, Output, zodSchema } from "ai";
import { describeModelFailure, isModelFailure } from "@/lib/ai/failures";
import { AppError } from "@/lib/errors";
import { logFailedAttempt } from "@/lib/log";
import { type MemoryContext, withUnit } from "@/lib/memory/core";
import { gateConsolidation, newReviewTurn, type ReviewTurn } from "@/lib/memory/review";
import { type Pricing, recordUsage, spentOnDay } from "@/lib/memory/usage";
import { readAnswer } from "./answer";
import { type CandidateGroup, candidateGroups } from "./candidates";
import { buildConsolidationPrompt, CONSOLIDATION_INSTRUCTIONS, consolidationAnswerSchema } from "./prompt";
import { addCall, type ConsolidationTrigger, claimRun, finishRun, noteAttemptFailure, recordGroup } from "./runs";

export interface ConsolidationDeps {
  /** The user's context; the run writes as the `extractor` actor (the extraction model). */
  ctx: MemoryContext;
  model: LanguageModel;
  modelId: string;
  pricing?: Pricing;
  /** As for extraction: USD per UTC day, chat and background together, before runs stop calling the model. */
  dailyBudgetUsd?: number;
  /** Groups shown to the model in one run at most; the rest wait for the next run. */
  maxGroups?: number;
}

export interface ConsolidationJob {
  jobId: string;
  finalAttempt: boolean;
  /** The run a person asked for (POST /api/v1/consolidation-runs); absent, the job opens its own. */
  runId?: string;
  trigger: ConsolidationTrigger;
}

export type ConsolidationOutcome =
  | { status: "skipped"; reason: string; runId?: string }
  | { status: "failed"; runId: string; reason: string }
  | { status: "succeeded"; runId: string; groups: number; applied: number; rejected: number };

export const DEFAULT_MAX_GROUPS = 50;

/**
 * One consolidation pass (docs/memory-model.md, "Consolidation"): find the user's candidate groups in SQL, show the
 * model one group at a time, and apply each group's valid ops through the gate in one unit of work with the group's
 * record, so a run that fails midway leaves every group done or untouched. Two runs of one user never overlap.
 */
export async function runConsolidation(deps: ConsolidationDeps, job: ConsolidationJob): Promise<ConsolidationOutcome> {
  const { ctx } = deps;
  const claimed = await claimRun(ctx, { ...job, modelId: deps.modelId });
  if ("busy" in claimed) return { status: "skipped", reason: claimed.busy };
  const runId = claimed.run.id;
  const budget = await budgetReached(ctx, deps.dailyBudgetUsd);
  if (budget) {
    await finishRun(ctx, runId, { status: "skipped", error: budget });
    return { status: "skipped", reason: budget, runId };
  }
  try {
    const probe = job.trigger === "daily" ? "every" : "changed";
    const limit = deps.maxGroups ?? DEFAULT_MAX_GROUPS;
    const { groups, complete } = await candidateGroups(ctx, ctx.clock(), limit, probe);
    const turn = newReviewTurn();
    let applied = 0;
    let rejected = 0;
    for (const group of groups) {
      const counts = await consolidateGroup(deps, runId, turn, group);
      applied += counts.applied;
      rejected += counts.rejected;
    }
    await finishRun(ctx, runId, { status: "succeeded", complete });
    return { status: "succeeded", runId, groups: groups.length, applied, rejected };
  } catch (error) {
    logFailedAttempt("consolidation attempt failed", error, {
      run: runId,
      user: ctx.principal.userId,
      model: deps.modelId,
      retried: !job.finalAttempt,
    });
    const reason = isModelFailure(error)
      ? describeModelFailure(error)
      : error instanceof Error
        ? error.message
        : String(error);
    if (!job.finalAttempt) {
      await noteAttemptFailure(ctx, runId, reason);
      throw error;
    }
    await finishRun(ctx, runId, { status: "failed", error: reason });
    return { status: "failed", runId, reason };
  }
}

/** Asks the model about one group and applies its answer with the group's record, in one unit of work. */
async function consolidateGroup(
  deps: ConsolidationDeps,
  runId: string,
  turn: ReviewTurn,
  group: CandidateGroup,
): Promise<{ applied: number; rejected: number }> {
  const { ctx } = deps;
  const now = ctx.clock();
  const { output, usage } = await askModel(deps.model, buildConsolidationPrompt(group, now, ctx.principal.root));
  const costUsd = deps.pricing?.(usage) ?? null;
  await recordUsage(ctx, { kind: "extraction", model: deps.modelId, usage, costUsd, runId });
  await addCall(ctx, runId, usage, costUsd);
  const read = readAnswer(output, group, now);
  const writer: MemoryContext = {
    ...ctx,
    actor: { type: "extractor", id: deps.modelId },
    provenance: { source: "extraction", runId },
  };
  return withUnit(writer, async (tx) => {
    const applied: unknown[] = [];
    const rejected: unknown[] = [...read.rejected];
    for (const { write, cited } of read.writes) {
      const op = write.op === "merge" ? "merge" : write.supersededBy ? "supersede" : "expire";
      const recorded = { op, ids: cited };
      try {
        const decision = await gateConsolidation(tx, turn, write);
        if (decision.decision === "applied") {
          applied.push({
            ...recorded,
            writes: decision.written.map((memory) => ({ memoryId: memory.id, version: memory.version })),
          });
        } else if (decision.decision === "held") {
          const ids = decision.proposals.map((proposal) => proposal.id).join(", ");
          rejected.push({ op: recorded, reason: `held for the user's review as proposal ${ids} (${decision.why})` });
        } else rejected.push({ op: recorded, reason: decision.why });
      } catch (error) {
        // A memory changed since the group was read (a conflict), or an op the store refuses: this op only.
        if (!(error instanceof AppError)) throw error;
        rejected.push({ op: recorded, reason: error.message });
      }
    }
    const kept = group.memories
      .filter((memory) => !read.cited.has(memory.id))
      .map((memory) => ({ id: memory.id, version: memory.version }));
    const shown = group.memories.map((memory) => ({ id: memory.id, version: memory.version }));
    await recordGroup(tx, runId, {
      group: { memories: shown, pairs: group.pairs, dated: group.dated.map((entry) => entry.id), kept },
      proposed: read.writes.map(({ write, cited }) => ({ op: write.op, ids: cited })),
      applied,
      rejected,
    });
    return { applied: applied.length, rejected: rejected.length };
  });
}

async function askModel(
  model: LanguageModel,
  prompt: string,
): Promise<{ output: unknown; usage: { inputTokens?: number; outputTokens?: number } }> {
  const wire = zodSchema(consolidationAnswerSchema);
  try {
    const result = await generateText({
      model,
      instructions: CONSOLIDATION_INSTRUCTIONS,
      prompt,
      output: Output.object({
        schema: jsonSchema<unknown>(() => wire.jsonSchema, { validate: (value) => ({ success: true, value }) }),
        name: "consolidation_ops",
      }),
    });
    return { output: result.output, usage: usageOf(result.usage) };
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    return { output: error.text ?? "", usage: usageOf(error.usage) };
  }
}

const usageOf = (usage: { inputTokens?: number; outputTokens?: number } | undefined) => ({
  inputTokens: usage?.inputTokens,
  outputTokens: usage?.outputTokens,
});

async function budgetReached(ctx: MemoryContext, budgetUsd: number | undefined): Promise<string | null> {
  if (budgetUsd === undefined) return null;
  const spent = await spentOnDay(ctx, ctx.clock());
  return spent < budgetUsd ? null : "daily budget reached: consolidation resumes tomorrow (UTC)";
}

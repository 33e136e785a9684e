import { eq, sql } from "drizzle-orm";
import { expireIdleGuests } from "@/lib/account/guest-expiry";
import { chatLanguageModel, configuredEmbeddingModel } from "@/lib/ai/models";
import { pricingFor } from "@/lib/ai/prices";
import { namespaceRoot } from "@/lib/auth/principal";
import { config } from "@/lib/config";
import { type Database, getDatabase } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { logFailure } from "@/lib/log";
import { addedSinceLastRun, runConsolidation } from "@/lib/memory/consolidation";
import { type MemoryContext, systemClock } from "@/lib/memory/core";
import { failAbandonedRun, runExtraction } from "@/lib/memory/extraction";
import { runOptimizer } from "@/lib/memory/optimizer";
import { embeddingBacklogAcrossUsers, embedMissing } from "@/lib/memory/search";
import type {
  ConsolidationJobData,
  EmbeddingJobData,
  ExtractionJobData,
  JobQueue,
  OptimizerJobData,
} from "@/lib/server/queue";
import { errorClass, inSpan } from "@/lib/telemetry";
import { instruments } from "@/lib/telemetry/metrics";
import { getJobQueue } from "./jobs";
import { memoryContextFor } from "./memory-context";
import { startWebhookWorker } from "./webhooks";

/** The context a queued job acts in: the job's user, as the extraction model, within the user's memory quota. */
async function jobContext(database: Database, userId: string, modelId: string): Promise<MemoryContext> {
  const [user] = await database.unbound.db
    .select({ isGuest: users.isGuest })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  // A user gone since the job was queued gets the smaller quota; their writes fail on the missing user anyway.
  const principal = { userId, root: namespaceRoot(userId), isGuest: user?.isGuest ?? true };
  return memoryContextFor(principal, "job", { database, actor: { type: "extractor", id: modelId } });
}

/** Runs one queued extraction job as the thread's owner, with the configured extraction model. */
export async function handleExtractionJob(
  database: Database,
  data: ExtractionJobData,
  meta: { jobId: string; finalAttempt: boolean },
) {
  const modelId = config().EXTRACTION_MODEL;
  const ctx = await jobContext(database, data.userId, modelId);
  const outcome = await tracedRun(
    "extraction",
    { "chat.thread.id": data.threadId, "job.id": meta.jobId, model: modelId },
    () =>
      runExtraction(
        {
          ctx,
          model: chatLanguageModel(modelId),
          modelId,
          pricing: pricingFor(modelId),
          dailyBudgetUsd: config().EXTRACTION_DAILY_BUDGET_USD,
        },
        {
          threadId: data.threadId,
          jobId: meta.jobId,
          finalAttempt: meta.finalAttempt,
          answeredOnly: data.answeredOnly,
        },
      ),
  );
  // Debounced consolidation (docs/memory-model.md, "Consolidation"): every CONSOLIDATION_AFTER new memories.
  if (outcome.status === "succeeded" && outcome.applied.some((op) => op.op === "insert")) {
    if ((await addedSinceLastRun(ctx)) >= config().CONSOLIDATION_AFTER) {
      await (await getJobQueue()).enqueueConsolidation(
        { userId: data.userId, trigger: "after_extraction" },
        config().EXTRACTION_DEBOUNCE_MS,
      );
    }
  }
}

/** Runs one consolidation pass for the job's user on the extraction model. */
export async function handleConsolidationJob(
  database: Database,
  data: ConsolidationJobData,
  meta: { jobId: string; finalAttempt: boolean },
) {
  const modelId = config().EXTRACTION_MODEL;
  const ctx = await jobContext(database, data.userId, modelId);
  await tracedRun("consolidation", { "job.id": meta.jobId, model: modelId }, () =>
    runConsolidation(
      {
        ctx,
        model: chatLanguageModel(modelId),
        modelId,
        pricing: pricingFor(modelId),
        dailyBudgetUsd: config().EXTRACTION_DAILY_BUDGET_USD,
      },
      { ...meta, trigger: data.trigger, ...(data.runId ? { runId: data.runId } : {}) },
    ),
  );
}

/** The daily pass: a consolidation job for everyone whose memories changed in the last day. */
async function queueDailyConsolidation(database: Database, queue: JobQueue) {
  const rows = await database.unbound.rows<{ userId: string }>(sql`
    select distinct user_id as "userId" from memories where updated_at > now() - interval '1 day'`);
  for (const { userId } of rows) await queue.enqueueConsolidation({ userId, trigger: "daily" });
}

/** Runs one optimizer pass for the job's user on the extraction model. */
export async function handleOptimizerJob(
  database: Database,
  data: OptimizerJobData,
  meta: { jobId: string; finalAttempt: boolean },
) {
  const modelId = config().EXTRACTION_MODEL;
  const ctx = await jobContext(database, data.userId, modelId);
  await tracedRun("optimizer", { "job.id": meta.jobId, model: modelId }, () =>
    runOptimizer(
      {
        ctx,
        model: chatLanguageModel(modelId),
        modelId,
        pricing: pricingFor(modelId),
        dailyBudgetUsd: config().EXTRACTION_DAILY_BUDGET_USD,
      },
      meta,
    ),
  );
}

/**
 * A run of the memory manager or the optimizer in its span, counted by its outcome: the run's status, or `error` when
 * the attempt threw (the queue retries it).
 */
async function tracedRun<T extends { status: string }>(
  kind: "extraction" | "optimizer" | "consolidation",
  attributes: Record<string, string>,
  run: () => Promise<T>,
): Promise<T> {
  return inSpan(`${kind} run`, { "run.kind": kind, ...attributes }, async (span) => {
    try {
      const outcome = await run();
      span.setAttribute("run.status", outcome.status);
      instruments().runs.add(1, { kind, outcome: outcome.status });
      return outcome;
    } catch (error) {
      instruments().runs.add(1, { kind, outcome: "error", "error.type": errorClass(error) });
      throw error;
    }
  });
}

/** Embeds every memory of the job's user that has no current vector, a batch per provider call. */
export async function handleEmbeddingJob(database: Database, data: EmbeddingJobData) {
  const ctx = await jobContext(database, data.userId, config().EXTRACTION_MODEL);
  while ((await embedMissing(ctx)) > 0) {
    // Each round reads the next batch still missing, so memories written meanwhile are included.
  }
}

/**
 * Whoever has memories without a vector for the configured model (a first start on existing data, a model change)
 * gets an embedding job; the jobs then run in the background like any other.
 */
async function sweepEmbeddingBacklog(database: Database, queue: JobQueue) {
  const model = configuredEmbeddingModel();
  if (!model) return;
  const { users } = await embeddingBacklogAcrossUsers(database, model);
  for (const userId of users) await queue.scheduleEmbedding(userId);
}

/** Starts working the job queues in this process; returns a function that drains and stops them. */
export async function startWorker(): Promise<() => Promise<void>> {
  // First: a bad value stops `npm run worker` here, with the message, as it stops the web server (./start.ts).
  const { GUEST_TTL_DAYS: ttlDays } = config();
  const database = await getDatabase();
  const queue = await getJobQueue();
  await queue.work((data, meta) => handleExtractionJob(database, data, meta));
  await queue.workDeadLetters(async (data, meta) => {
    await failAbandonedRun(await jobContext(database, data.userId, config().EXTRACTION_MODEL), meta.jobId);
  });
  await queue.workEmbeddings((data) => handleEmbeddingJob(database, data));
  await queue.workOptimizer((data, meta) => handleOptimizerJob(database, data, meta));
  await queue.workConsolidation((data, meta) => handleConsolidationJob(database, data, meta));
  await queue.workDailyConsolidation(() => queueDailyConsolidation(database, queue));
  await queue.workGuestExpiry(async () => {
    await expireIdleGuests(database, { now: systemClock(), ttlDays });
  });
  const stopWebhooks = await startWebhookWorker(database, queue);
  void sweepEmbeddingBacklog(database, queue).catch((error) =>
    logFailure("could not queue the embedding backlog", error),
  );
  return () => {
    stopWebhooks();
    return queue.stop();
  };
}

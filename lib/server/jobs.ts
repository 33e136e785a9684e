import { eq } from "drizzle-orm";
import { expireIdleGuests, guestTtlDays } from "@/lib/account/guest-expiry";
import { extractionModelId } from "@/lib/ai/config";
import { chatLanguageModel, configuredEmbeddingModel } from "@/lib/ai/models";
import { checkUsageConfig, extractionDailyBudgetUsd, pricingFor } from "@/lib/ai/prices";
import { namespaceRoot } from "@/lib/auth/principal";
import type { Database } from "@/lib/db";
import { getDatabase } from "@/lib/db";
import { users } from "@/lib/db/schema";
import { logFailure } from "@/lib/log";
import { type MemoryContext, systemClock } from "@/lib/memory/core";
import { failAbandonedRun, runExtraction } from "@/lib/memory/extraction";
import { runOptimizer } from "@/lib/memory/optimizer";
import { embeddingBacklogAcrossUsers, embedMissing } from "@/lib/memory/search";
import { clearProcessState, processState } from "@/lib/process-state";
import { type EmbeddingJobData, type ExtractionJobData, JobQueue, type OptimizerJobData } from "./queue";
import { checkQuotaConfig, memoryQuotaFor } from "./quotas";
import { startWebhookWorker, webhookWiring } from "./webhooks";

/** The process-wide queue on the process database, opened on first use; a failed open is tried again next time. */
export function getJobQueue(): Promise<JobQueue> {
  const heartbeat = Number(process.env.EXTRACTION_HEARTBEAT_SECONDS);
  return processState("job-queue", () =>
    getDatabase()
      .then((database) => JobQueue.open(database, { heartbeatSeconds: heartbeat >= 10 ? heartbeat : undefined }))
      .catch((error) => {
        // Kept, one failure (the database restarting) would stop every later chat from scheduling extraction.
        clearProcessState("job-queue");
        throw error;
      }),
  );
}

export function extractionDebounceMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = Number(env.EXTRACTION_DEBOUNCE_MS);
  return Number.isFinite(value) && value >= 0 ? value : 3_000;
}

/** OPTIMIZER_DEBOUNCE_MS: quiet after the last feedback before the optimizer reads it; EXTRACTION_DEBOUNCE_MS else. */
export function optimizerDebounceMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = Number(env.OPTIMIZER_DEBOUNCE_MS);
  return env.OPTIMIZER_DEBOUNCE_MS?.trim() && Number.isFinite(value) && value >= 0 ? value : extractionDebounceMs(env);
}

/**
 * How every context of this app gets vectors: the configured embedding model (the bundled local one unless
 * EMBEDDING_MODEL says otherwise), and writes that ask the queue for their vectors once they commit.
 */
export function embeddingWiring(): Pick<MemoryContext, "embeddingModel" | "scheduleEmbedding"> {
  const embeddingModel = configuredEmbeddingModel();
  if (!embeddingModel) return {};
  return {
    embeddingModel,
    scheduleEmbedding: async (userId) => (await getJobQueue()).scheduleEmbedding(userId),
  };
}

/** The context a queued job acts in: the job's user, as the extraction model, within the user's memory quota. */
async function jobContext(database: Database, userId: string, modelId: string): Promise<MemoryContext> {
  const [user] = await database.unbound.db
    .select({ isGuest: users.isGuest })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return {
    database,
    principal: { userId, root: namespaceRoot(userId) },
    actor: { type: "extractor", id: modelId },
    clock: systemClock,
    // A user gone since the job was queued gets the smaller quota; their writes fail on the missing user anyway.
    memoryQuota: memoryQuotaFor(user?.isGuest ?? true),
    ...embeddingWiring(),
    ...webhookWiring(getJobQueue),
  };
}

/** Runs one queued extraction job as the thread's owner, with the configured extraction model. */
export async function handleExtractionJob(
  database: Database,
  data: ExtractionJobData,
  meta: { jobId: string; finalAttempt: boolean },
) {
  const modelId = extractionModelId();
  await runExtraction(
    {
      ctx: await jobContext(database, data.userId, modelId),
      model: chatLanguageModel(modelId),
      modelId,
      pricing: pricingFor(modelId),
      dailyBudgetUsd: extractionDailyBudgetUsd(),
    },
    {
      threadId: data.threadId,
      jobId: meta.jobId,
      finalAttempt: meta.finalAttempt,
      answeredOnly: data.answeredOnly,
    },
  );
}

/** Runs one optimizer pass for the job's user on the extraction model. */
export async function handleOptimizerJob(
  database: Database,
  data: OptimizerJobData,
  meta: { jobId: string; finalAttempt: boolean },
) {
  const modelId = extractionModelId();
  await runOptimizer(
    {
      ctx: await jobContext(database, data.userId, modelId),
      model: chatLanguageModel(modelId),
      modelId,
      pricing: pricingFor(modelId),
      dailyBudgetUsd: extractionDailyBudgetUsd(),
    },
    meta,
  );
}

/** Embeds every memory of the job's user that has no current vector, a batch per provider call. */
export async function handleEmbeddingJob(database: Database, data: EmbeddingJobData) {
  const ctx = await jobContext(database, data.userId, extractionModelId());
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
  checkUsageConfig();
  checkQuotaConfig();
  const ttlDays = guestTtlDays();
  const database = await getDatabase();
  const queue = await getJobQueue();
  await queue.work((data, meta) => handleExtractionJob(database, data, meta));
  await queue.workDeadLetters(async (data, meta) => {
    await failAbandonedRun(await jobContext(database, data.userId, extractionModelId()), meta.jobId);
  });
  await queue.workEmbeddings((data) => handleEmbeddingJob(database, data));
  await queue.workOptimizer((data, meta) => handleOptimizerJob(database, data, meta));
  await queue.workGuestExpiry(async () => {
    await expireIdleGuests(database, { now: new Date(), ttlDays });
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

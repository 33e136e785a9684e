import { extractionModelId } from "@/lib/ai/config";
import { chatLanguageModel, configuredEmbeddingModel } from "@/lib/ai/models";
import { namespaceRoot } from "@/lib/auth/principal";
import type { Database } from "@/lib/db";
import { getDatabase } from "@/lib/db";
import { systemClock } from "@/lib/memory";
import { failAbandonedRun, runExtraction } from "@/lib/memory/extraction";
import { type ExtractionJobData, ExtractionQueue } from "@/lib/memory/queue";

const SLOT = Symbol.for("memory-ledger.extraction-queue");
type Slot = { [SLOT]?: Promise<ExtractionQueue> };

/** The process-wide queue on the process database, opened on first use; a failed open is tried again next time. */
export function getExtractionQueue(): Promise<ExtractionQueue> {
  const slot = globalThis as Slot;
  const heartbeat = Number(process.env.EXTRACTION_HEARTBEAT_SECONDS);
  slot[SLOT] ??= getDatabase()
    .then((database) => ExtractionQueue.open(database, { heartbeatSeconds: heartbeat >= 10 ? heartbeat : undefined }))
    .catch((error) => {
      // Kept, one failure (the database restarting) would stop every later chat from scheduling extraction.
      slot[SLOT] = undefined;
      throw error;
    });
  return slot[SLOT];
}

export function extractionDebounceMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const value = Number(env.EXTRACTION_DEBOUNCE_MS);
  return Number.isFinite(value) && value >= 0 ? value : 3_000;
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
      ctx: {
        database,
        principal: { userId: data.userId, root: namespaceRoot(data.userId) },
        actor: { type: "extractor", id: modelId },
        clock: systemClock,
        embeddingModel: configuredEmbeddingModel(),
      },
      model: chatLanguageModel(modelId),
      modelId,
    },
    { threadId: data.threadId, jobId: meta.jobId, finalAttempt: meta.finalAttempt, answeredOnly: data.answeredOnly },
  );
}

/** Starts working extraction jobs in this process; returns a function that drains and stops it. */
export async function startExtractionWorker(): Promise<() => Promise<void>> {
  const database = await getDatabase();
  const queue = await getExtractionQueue();
  await queue.work((data, meta) => handleExtractionJob(database, data, meta));
  await queue.workDeadLetters(async (data, meta) => {
    await failAbandonedRun(database, data.userId, meta.jobId);
  });
  return () => queue.stop();
}

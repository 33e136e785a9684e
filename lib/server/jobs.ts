import { configuredEmbeddingModel } from "@/lib/ai/models";
import { getDatabase } from "@/lib/db";
import type { MemoryContext } from "@/lib/memory";
import { JobQueue } from "@/lib/memory/queue";
import { clearProcessState, processState } from "@/lib/process-state";

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

import { configuredEmbeddingModel } from "@/lib/ai/models";
import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import type { MemoryContext } from "@/lib/memory/core";
import { clearProcessState, processState } from "@/lib/process-state";
import { JobQueue } from "./queue";

/** The process-wide queue on the process database, opened on first use; a failed open is tried again next time. */
export function getJobQueue(): Promise<JobQueue> {
  return processState("job-queue", () =>
    getDatabase()
      .then((database) => JobQueue.open(database, { heartbeatSeconds: config().EXTRACTION_HEARTBEAT_SECONDS }))
      .catch((error) => {
        // Kept, one failure (the database restarting) would stop every later chat from scheduling extraction.
        clearProcessState("job-queue");
        throw error;
      }),
  );
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

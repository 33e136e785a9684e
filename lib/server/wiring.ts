import type { MemoryContext } from "@/lib/memory/core";
import { embeddingWiring, getJobQueue, optimizerDebounceMs } from "./jobs";
import { webhookWiring } from "./webhooks";

/**
 * Everything a request's context hands to the background once its writes commit: vectors to compute, webhook
 * deliveries to send and feedback for the optimizer. Every surface's context is built with it (queued jobs build theirs in ./jobs.ts).
 */
export function backgroundWiring(): Pick<
  MemoryContext,
  "embeddingModel" | "scheduleEmbedding" | "scheduleWebhookDeliveries" | "scheduleOptimizer"
> {
  return {
    ...embeddingWiring(),
    ...webhookWiring(getJobQueue),
    scheduleOptimizer: async (userId) => (await getJobQueue()).enqueueOptimizer({ userId }, optimizerDebounceMs()),
  };
}

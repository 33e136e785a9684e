import { config } from "@/lib/config";
import type { MemoryContext } from "@/lib/memory/core";
import { embeddingWiring, getJobQueue } from "./jobs";
import { webhookWiring } from "./webhooks";

/**
 * Everything a request's context hands to the background once its writes commit: vectors to compute, webhook
 * deliveries to send and feedback for the optimizer. Every context is built with it (./memory-context.ts).
 */
export function backgroundWiring(): Pick<
  MemoryContext,
  "embeddingModel" | "scheduleEmbedding" | "scheduleWebhookDeliveries" | "scheduleOptimizer"
> {
  return {
    ...embeddingWiring(),
    ...webhookWiring(getJobQueue),
    scheduleOptimizer: async (userId) =>
      (await getJobQueue()).enqueueOptimizer({ userId }, config().OPTIMIZER_DEBOUNCE_MS),
  };
}

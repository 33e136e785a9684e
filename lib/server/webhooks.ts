import type { Database } from "@/lib/db";
import { logFailure } from "@/lib/log";
import type { MemoryContext } from "@/lib/memory";
import type { JobQueue } from "@/lib/memory/queue";
import {
  attemptDelivery,
  DEFAULT_DELIVERY,
  type DeliveryConfig,
  overdueDeliveries,
  type TargetPolicy,
} from "@/lib/memory/webhooks";

/**
 * WEBHOOK_ALLOW_PRIVATE=true lets webhooks target private and loopback addresses over plain http (tests deliver to
 * a receiver on 127.0.0.1); anything else keeps targets public and https.
 */
export function webhookPolicy(env: Readonly<Record<string, string | undefined>> = process.env): TargetPolicy {
  return { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === "true" };
}

/** How this process's contexts hand new deliveries to the queue once their write commits. */
export function webhookWiring(queue: () => Promise<JobQueue>): Pick<MemoryContext, "scheduleWebhookDeliveries"> {
  return { scheduleWebhookDeliveries: async (deliveries) => (await queue()).sendWebhookDeliveries(deliveries) };
}

/** How often the worker looks for deliveries nobody queued (a crash between a commit and its enqueue). */
const SWEEP_INTERVAL_MS = 60_000;

/** Works webhook deliveries in this process; returns a function that stops the sweep. */
export async function startWebhookWorker(
  database: Database,
  queue: JobQueue,
  overrides: Partial<DeliveryConfig> = {},
): Promise<() => void> {
  const config: DeliveryConfig = {
    ...DEFAULT_DELIVERY,
    policy: webhookPolicy(),
    clock: () => new Date(),
    ...overrides,
  };
  const retry = (delivery: Parameters<JobQueue["sendWebhookDeliveries"]>[0][number], startAfter: Date) =>
    queue.sendWebhookDeliveries([delivery], startAfter);
  await queue.workWebhookDeliveries(async (job) => {
    await attemptDelivery(database, job, config, retry);
  });
  const sweep = setInterval(() => {
    overdueDeliveries(database, new Date(), SWEEP_INTERVAL_MS)
      .then((due) => queue.sendWebhookDeliveries(due))
      .catch((error) => logFailure("could not queue overdue webhook deliveries", error));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  return () => clearInterval(sweep);
}

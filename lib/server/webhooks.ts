import { config } from "@/lib/config";
import type { Database } from "@/lib/db";
import { logFailure } from "@/lib/log";
import { type MemoryContext, systemClock } from "@/lib/memory/core";
import {
  attemptDelivery,
  DEFAULT_DELIVERY,
  type DeliveryConfig,
  overdueDeliveries,
  pruneWebhookDeliveries,
  type TargetPolicy,
} from "@/lib/memory/webhooks";
import { inSpan } from "@/lib/telemetry";
import { instruments } from "@/lib/telemetry/metrics";
import type { JobQueue } from "./queue";

/**
 * WEBHOOK_ALLOW_PRIVATE=true lets webhooks target private and loopback addresses over plain http (tests deliver to
 * a receiver on 127.0.0.1); otherwise targets are public and https.
 */
export function webhookPolicy(): TargetPolicy {
  return { allowPrivate: config().WEBHOOK_ALLOW_PRIVATE };
}

/** How this process's contexts hand new deliveries to the queue once their write commits. */
export function webhookWiring(queue: () => Promise<JobQueue>): Pick<MemoryContext, "scheduleWebhookDeliveries"> {
  return { scheduleWebhookDeliveries: async (deliveries) => (await queue()).sendWebhookDeliveries(deliveries) };
}

/** How often the worker looks for deliveries nobody queued (a crash between a commit and its enqueue). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Works webhook deliveries in this process, and the daily prune of the delivery log; returns a function that stops
 * the sweep.
 */
export async function startWebhookWorker(
  database: Database,
  queue: JobQueue,
  overrides: Partial<DeliveryConfig> = {},
): Promise<() => void> {
  const retentionDays = config().WEBHOOK_DELIVERY_RETENTION_DAYS;
  const delivery: DeliveryConfig = {
    ...DEFAULT_DELIVERY,
    policy: webhookPolicy(),
    clock: systemClock,
    ...overrides,
  };
  const retry = (delivery: Parameters<JobQueue["sendWebhookDeliveries"]>[0][number], startAfter: Date) =>
    queue.sendWebhookDeliveries([delivery], startAfter);
  await queue.workWebhookDeliveries(async (job) => {
    const attributes = { "webhook.delivery.id": job.deliveryId, "webhook.attempt": job.attempt };
    await inSpan("webhook delivery", attributes, async (span) => {
      const outcome = await attemptDelivery(database, job, delivery, retry);
      span.setAttribute("webhook.outcome", outcome);
      instruments().webhookDeliveries.add(1, { outcome });
    });
  });
  await queue.workWebhookPrune(async () => {
    await pruneWebhookDeliveries(database, { now: systemClock(), retentionDays });
  });
  const sweep = setInterval(() => {
    overdueDeliveries(database, systemClock(), SWEEP_INTERVAL_MS)
      .then((due) => queue.sendWebhookDeliveries(due))
      .catch((error) => logFailure("could not queue overdue webhook deliveries", error));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  return () => clearInterval(sweep);
}

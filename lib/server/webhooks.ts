import { z } from "zod";
import type { Database } from "@/lib/db";
import { logFailure } from "@/lib/log";
import type { MemoryContext } from "@/lib/memory/core";
import {
  attemptDelivery,
  DEFAULT_DELIVERY,
  type DeliveryConfig,
  overdueDeliveries,
  pruneWebhookDeliveries,
  type TargetPolicy,
} from "@/lib/memory/webhooks";
import type { JobQueue } from "./queue";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * WEBHOOK_ALLOW_PRIVATE=true lets webhooks target private and loopback addresses over plain http (tests deliver to
 * a receiver on 127.0.0.1); anything else keeps targets public and https.
 */
export function webhookPolicy(env: Env = process.env): TargetPolicy {
  return { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === "true" };
}

const retentionDaysSchema = z.coerce.number().int().min(1).max(36_500);

/**
 * WEBHOOK_DELIVERY_RETENTION_DAYS: days a finished delivery stays in the delivery log, a whole number from 1; 30 when
 * unset. Any other value stops the worker at start, rather than keep or delete the log for a time nobody chose.
 */
export function webhookDeliveryRetentionDays(env: Env = process.env): number {
  const raw = env.WEBHOOK_DELIVERY_RETENTION_DAYS?.trim();
  if (!raw) return 30;
  const parsed = retentionDaysSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`WEBHOOK_DELIVERY_RETENTION_DAYS must be a whole number of days from 1, not "${raw}".`);
  }
  return parsed.data;
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
  const retentionDays = webhookDeliveryRetentionDays();
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
  await queue.workWebhookPrune(async () => {
    await pruneWebhookDeliveries(database, { now: new Date(), retentionDays });
  });
  const sweep = setInterval(() => {
    overdueDeliveries(database, new Date(), SWEEP_INTERVAL_MS)
      .then((due) => queue.sendWebhookDeliveries(due))
      .catch((error) => logFailure("could not queue overdue webhook deliveries", error));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  return () => clearInterval(sweep);
}

import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { asUser, type UnitOfWork, type UserBinding } from "@/lib/db/unit-of-work";
import type { ScheduledDelivery } from "./outbox";
import { type SendOptions, type SendResult, sendWebhook } from "./send";
import { webhookHeaders } from "./signing";
import type { Lookup, TargetPolicy } from "./targets";

/** How deliveries are attempted; the app's defaults are in DEFAULT_DELIVERY, tests pass small ones. */
export interface DeliveryConfig {
  policy: TargetPolicy;
  /** One attempt, from resolving the name to the receiver's status line. */
  timeoutMs: number;
  /** Attempts per delivery, the first included. */
  maxAttempts: number;
  /** The wait before the second attempt; each later wait is `backoffFactor` times the one before, up to maxDelayMs. */
  baseDelayMs: number;
  backoffFactor: number;
  maxDelayMs: number;
  /**
   * Failures in a row, with no success between them, before the endpoint is disabled. A failure is a delivery that
   * runs out of attempts, or a single attempt that times out: a receiver that answers only at the timeout holds a
   * delivery slot for all of it, so it "keeps timing out" after this many such attempts, retries included, rather
   * than after this many deliveries have each used up every attempt.
   */
  disableAfterFailures: number;
  clock: () => Date;
  lookup?: Lookup;
}

/**
 * 8 attempts over about 9.5 hours (30 s, 1.5 min, 4.5 min, … capped at 6 h), 5 s each (Standard Webhooks receivers
 * are expected to answer at once and do their work after); disabled after 5 failures in a row.
 */
export const DEFAULT_DELIVERY: Omit<DeliveryConfig, "policy" | "clock"> = {
  timeoutMs: 5_000,
  maxAttempts: 8,
  baseDelayMs: 30_000,
  backoffFactor: 3,
  maxDelayMs: 6 * 3_600_000,
  disableAfterFailures: 5,
};

/** The wait after failed attempt `attempt` (1-based) before the next one. */
export function backoffDelayMs(
  config: Pick<DeliveryConfig, "baseDelayMs" | "backoffFactor" | "maxDelayMs">,
  attempt: number,
) {
  return Math.min(config.baseDelayMs * config.backoffFactor ** (attempt - 1), config.maxDelayMs);
}

export type DeliveryOutcome = "succeeded" | "retrying" | "failed" | "skipped";

/**
 * One queued attempt of one delivery. The attempt is claimed in a short transaction, sent with no transaction
 * open, and its result recorded in another; a failure schedules the next attempt after the backoff (once that
 * record commits). The last failure, and every timed-out attempt, counts against the endpoint, which is disabled
 * after too many in a row (see disableAfterFailures); the attempt that disables it is the delivery's last.
 * A job that is not the delivery's next attempt (a duplicate, or one for a deleted endpoint) changes nothing.
 */
export async function attemptDelivery(
  database: Database,
  job: ScheduledDelivery,
  config: DeliveryConfig,
  schedule: (delivery: ScheduledDelivery, startAfter: Date) => Promise<void>,
): Promise<DeliveryOutcome> {
  const binding = { database, principal: { userId: job.userId } };
  const claimed = await claimAttempt(binding, job, config);
  if (!claimed) return "skipped";
  if (claimed === "disabled") return "failed";
  const result = await send(claimed, config);
  return asUser(binding, (unit) => recordResult(unit, job, claimed, result, config, schedule));
}

type Claimed = { delivery: typeof webhookDeliveries.$inferSelect; endpoint: typeof webhookEndpoints.$inferSelect };

const deliveryRow = (userId: string, id: string) =>
  and(eq(webhookDeliveries.userId, userId), eq(webhookDeliveries.id, id));

/**
 * Takes the job's attempt of its delivery, with the endpoint to send it to; null when the job is not the delivery's
 * next attempt or the endpoint is gone, `disabled` (and the delivery failed) when the endpoint is disabled.
 */
async function claimAttempt(
  binding: UserBinding,
  job: ScheduledDelivery,
  config: DeliveryConfig,
): Promise<Claimed | "disabled" | null> {
  return asUser(binding, async ({ db }) => {
    const [delivery] = await db
      .update(webhookDeliveries)
      .set({ status: "sending", attempts: job.attempt, lastAttemptAt: config.clock(), nextAttemptAt: null })
      .where(
        and(
          deliveryRow(job.userId, job.deliveryId),
          inArray(webhookDeliveries.status, ["pending", "sending"]),
          // A worker that died mid-attempt leaves it `sending`; its job's retry may take the same attempt again.
          or(
            eq(webhookDeliveries.attempts, job.attempt - 1),
            and(eq(webhookDeliveries.status, "sending"), eq(webhookDeliveries.attempts, job.attempt)),
          ),
        ),
      )
      .returning();
    if (!delivery) return null;
    const [endpoint] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.userId, job.userId), eq(webhookEndpoints.id, delivery.endpointId)));
    if (!endpoint) return null;
    if (endpoint.disabledAt) {
      await db
        .update(webhookDeliveries)
        .set({ status: "failed", lastError: "not sent: the endpoint is disabled" })
        .where(deliveryRow(job.userId, delivery.id));
      return "disabled" as const;
    }
    return { delivery, endpoint };
  });
}

/** The signed request, with no transaction open. */
async function send({ delivery, endpoint }: Claimed, config: DeliveryConfig): Promise<SendResult> {
  const body = JSON.stringify(delivery.payload);
  const sendOptions: SendOptions = { policy: config.policy, timeoutMs: config.timeoutMs, lookup: config.lookup };
  try {
    return await sendWebhook(
      new URL(endpoint.url),
      webhookHeaders(endpoint.secret, delivery.id, config.clock(), body),
      body,
      sendOptions,
    );
  } catch (error) {
    return { ok: false, error: `not sent (${error instanceof Error ? error.name : "error"})` };
  }
}

/** The attempt's result: the delivery succeeded, is retried after the backoff, or failed for good. */
async function recordResult(
  unit: UnitOfWork,
  job: ScheduledDelivery,
  { delivery, endpoint }: Claimed,
  result: SendResult,
  config: DeliveryConfig,
  schedule: (delivery: ScheduledDelivery, startAfter: Date) => Promise<void>,
): Promise<DeliveryOutcome> {
  const { db } = unit;
  const now = config.clock();
  const endpointRow = and(eq(webhookEndpoints.userId, job.userId), eq(webhookEndpoints.id, endpoint.id));
  if (result.ok) {
    await db
      .update(webhookDeliveries)
      .set({ status: "succeeded", lastStatusCode: result.statusCode, lastError: null, deliveredAt: now })
      .where(deliveryRow(job.userId, delivery.id));
    await db.update(webhookEndpoints).set({ consecutiveFailures: 0 }).where(endpointRow);
    return "succeeded";
  }
  const recorded = { lastStatusCode: result.statusCode ?? null, lastError: result.error ?? "failed" };
  const outOfAttempts = job.attempt >= config.maxAttempts;
  const disabledNow =
    (outOfAttempts || result.timedOut) &&
    (await countFailure(db, endpointRow, result, recorded.lastError, config, now));
  if (!outOfAttempts && !disabledNow) {
    const startAfter = new Date(now.getTime() + backoffDelayMs(config, job.attempt));
    await db
      .update(webhookDeliveries)
      .set({ ...recorded, status: "pending", nextAttemptAt: startAfter })
      .where(deliveryRow(job.userId, delivery.id));
    unit.afterCommit(() => schedule({ ...job, attempt: job.attempt + 1 }, startAfter));
    return "retrying";
  }
  await db
    .update(webhookDeliveries)
    .set({ ...recorded, status: "failed" })
    .where(deliveryRow(job.userId, delivery.id));
  return "failed";
}

/** Counts a failure against the endpoint and disables it after too many in a row; returns whether it did now. */
async function countFailure(
  db: UnitOfWork["db"],
  endpointRow: SQL | undefined,
  result: SendResult,
  lastError: string,
  config: DeliveryConfig,
  now: Date,
): Promise<boolean> {
  const [counted] = await db
    .update(webhookEndpoints)
    .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`, updatedAt: now })
    .where(endpointRow)
    .returning({ failures: webhookEndpoints.consecutiveFailures, disabledAt: webhookEndpoints.disabledAt });
  if (!counted || counted.disabledAt || counted.failures < config.disableAfterFailures) return false;
  const why = result.timedOut ? `: the last attempt timed out (${lastError}).` : ` (last: ${lastError}).`;
  await db
    .update(webhookEndpoints)
    .set({ disabledAt: now, disabledReason: `Disabled after ${counted.failures} failures in a row${why}` })
    .where(endpointRow);
  return true;
}

/**
 * Deliveries no job is working: an attempt overdue by `graceMs` (recorded by a context that hands nothing to the
 * queue, or left by a crash between a commit and its enqueue), or one still `sending` `staleMs` after it started
 * (its worker died and the queue gave up on the job), which is then tried again as the same attempt. Across
 * users, like pg-boss itself; a job that turns out to be a duplicate is skipped by the claim.
 */
export async function overdueDeliveries(
  database: Database,
  now: Date,
  graceMs: number,
  staleMs = 3_600_000,
): Promise<ScheduledDelivery[]> {
  const due = new Date(now.getTime() - graceMs).toISOString();
  const stale = new Date(now.getTime() - staleMs).toISOString();
  const rows = await database.unbound.rows<{ user_id: string; id: string; attempt: number }>(sql`
    select user_id, id, case when status = 'sending' then attempts else attempts + 1 end as attempt
    from webhook_deliveries
    where (status = 'pending' and next_attempt_at < ${due}::timestamptz)
       or (status = 'sending' and last_attempt_at < ${stale}::timestamptz)
    order by coalesce(next_attempt_at, last_attempt_at)
    limit 500`);
  return rows.map((row) => ({ userId: row.user_id, deliveryId: row.id, attempt: Number(row.attempt) }));
}

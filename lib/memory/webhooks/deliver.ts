import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { asUser } from "@/lib/db/unit-of-work";
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
  const mine = (id: string) => and(eq(webhookDeliveries.userId, job.userId), eq(webhookDeliveries.id, id));
  const claimed = await asUser(binding, async ({ db }) => {
    const [delivery] = await db
      .update(webhookDeliveries)
      .set({ status: "sending", attempts: job.attempt, lastAttemptAt: config.clock(), nextAttemptAt: null })
      .where(
        and(
          mine(job.deliveryId),
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
        .where(mine(delivery.id));
      return "disabled" as const;
    }
    return { delivery, endpoint };
  });
  if (!claimed) return "skipped";
  if (claimed === "disabled") return "failed";

  const { delivery, endpoint } = claimed;
  const body = JSON.stringify(delivery.payload);
  const sendOptions: SendOptions = { policy: config.policy, timeoutMs: config.timeoutMs, lookup: config.lookup };
  let result: SendResult;
  try {
    result = await sendWebhook(
      new URL(endpoint.url),
      webhookHeaders(endpoint.secret, delivery.id, config.clock(), body),
      body,
      sendOptions,
    );
  } catch (error) {
    result = { ok: false, error: `not sent (${error instanceof Error ? error.name : "error"})` };
  }

  return asUser(binding, async (unit) => {
    const { db } = unit;
    const now = config.clock();
    const endpointRow = and(eq(webhookEndpoints.userId, job.userId), eq(webhookEndpoints.id, endpoint.id));
    if (result.ok) {
      await db
        .update(webhookDeliveries)
        .set({ status: "succeeded", lastStatusCode: result.statusCode, lastError: null, deliveredAt: now })
        .where(mine(delivery.id));
      await db.update(webhookEndpoints).set({ consecutiveFailures: 0 }).where(endpointRow);
      return "succeeded" as const;
    }
    const recorded = { lastStatusCode: result.statusCode ?? null, lastError: result.error ?? "failed" };
    const outOfAttempts = job.attempt >= config.maxAttempts;
    let disabledNow = false;
    if (outOfAttempts || result.timedOut) {
      const [counted] = await db
        .update(webhookEndpoints)
        .set({ consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`, updatedAt: now })
        .where(endpointRow)
        .returning({ failures: webhookEndpoints.consecutiveFailures, disabledAt: webhookEndpoints.disabledAt });
      if (counted && !counted.disabledAt && counted.failures >= config.disableAfterFailures) {
        const why = result.timedOut
          ? `: the last attempt timed out (${recorded.lastError}).`
          : ` (last: ${recorded.lastError}).`;
        await db
          .update(webhookEndpoints)
          .set({ disabledAt: now, disabledReason: `Disabled after ${counted.failures} failures in a row${why}` })
          .where(endpointRow);
        disabledNow = true;
      }
    }
    if (!outOfAttempts && !disabledNow) {
      const startAfter = new Date(now.getTime() + backoffDelayMs(config, job.attempt));
      await db
        .update(webhookDeliveries)
        .set({ ...recorded, status: "pending", nextAttemptAt: startAfter })
        .where(mine(delivery.id));
      unit.afterCommit(() => schedule({ ...job, attempt: job.attempt + 1 }, startAfter));
      return "retrying" as const;
    }
    await db
      .update(webhookDeliveries)
      .set({ ...recorded, status: "failed" })
      .where(mine(delivery.id));
    return "failed" as const;
  });
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

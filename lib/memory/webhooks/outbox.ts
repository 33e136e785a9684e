import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { valuesInsert } from "@/lib/db/bulk";
import type { Db } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { UnitOfWork } from "@/lib/db/unit-of-work";
import { envelope, purgedMemoryData, type WebhookEvent } from "./events";

/** A delivery to hand to the queue once the write that recorded it has committed. */
export interface ScheduledDelivery {
  userId: string;
  deliveryId: string;
  /** The attempt the job makes (1 for a new delivery). */
  attempt: number;
  /**
   * How many of the user's deliveries were unfinished before this one (new deliveries only). The queue serves the
   * lower places first, so users' backlogs are served in turn: one user's thousandth delivery waits behind every
   * other user's first, whatever order they were recorded in (docs/security.md).
   */
  backlog?: number;
}

/** How a context hands new deliveries to the queue; absent, they wait for the worker's sweep. */
export type ScheduleWebhookDeliveries = (deliveries: ScheduledDelivery[]) => Promise<void>;

/**
 * Records events inside the write's own transaction: one delivery row per subscribed, enabled endpoint, so an
 * event exists exactly when its write committed. The queue learns of them only after the commit (never inside the
 * transaction, and a rolled-back write sends nothing); a crash between the two leaves rows the sweep picks up.
 */
export async function recordWebhookEvents(
  unit: UnitOfWork,
  events: readonly WebhookEvent[],
  schedule: ScheduleWebhookDeliveries | undefined,
): Promise<void> {
  if (events.length === 0) return;
  const endpoints = await unit.db
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, unit.userId), isNull(webhookEndpoints.disabledAt)));
  const deliveries = endpoints.flatMap((endpoint) =>
    events
      .filter((event) => endpoint.events.includes(event.type))
      .map((event) => ({
        userId: unit.userId,
        id: randomUUID(),
        endpointId: endpoint.id,
        eventType: event.type,
        memoryId: event.memoryId ?? null,
        payload: envelope(event),
        status: "pending" as const,
        nextAttemptAt: event.at,
        createdAt: event.at,
      })),
  );
  if (deliveries.length === 0) return;
  const [waiting] = schedule
    ? await unit.db
        .select({ count: sql<number>`count(*)::int` })
        .from(webhookDeliveries)
        .where(
          and(eq(webhookDeliveries.userId, unit.userId), sql`${webhookDeliveries.status} in ('pending', 'sending')`),
        )
    : [];
  const insert = valuesInsert(webhookDeliveries, deliveries, "returning id");
  const inserted = await unit.query<{ id: string }>(insert.text, insert.parameters);
  if (inserted.length === 0 || !schedule) return;
  const userId = unit.userId;
  const before = waiting?.count ?? 0;
  unit.afterCommit(() =>
    schedule(inserted.map((row, place) => ({ userId, deliveryId: row.id, attempt: 1, backlog: before + place }))),
  );
}

/**
 * A purged memory's earlier deliveries keep only its id (sent or not): their payloads held its content. Runs in
 * the purge's transaction, with the other copies it erases.
 */
export async function reduceToIds(tx: Db, userId: string, memoryId: string): Promise<void> {
  await tx.execute(sql`
    update webhook_deliveries
    set payload = jsonb_set(payload, '{data}', ${JSON.stringify(purgedMemoryData(memoryId))}::jsonb)
    where user_id = ${userId}::uuid and memory_id = ${memoryId}::uuid and event_type <> 'memory.purged'`);
}

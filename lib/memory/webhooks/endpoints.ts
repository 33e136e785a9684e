import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  afterPosition,
  decodeCursor,
  type InvalidCursorPolicy,
  type KeysetOrder,
  keysetPage,
  orderBy,
} from "@/lib/db/keyset";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import { AppError, parseInput } from "@/lib/errors";
import { LIMITS } from "@/lib/memory/contract";
import { webhookEventType } from "./events";
import type { ScheduleWebhookDeliveries } from "./outbox";
import type { WebhookDelivery, WebhookEndpoint } from "./shapes";
import { generateWebhookSecret } from "./signing";
import { checkTargetUrl, type TargetPolicy } from "./targets";

export const MAX_ENDPOINTS_PER_USER = LIMITS.webhooksPerUser;

export const createWebhookInput = z.strictObject({
  url: z
    .string()
    .trim()
    .min(1, "Give the URL to deliver to.")
    .max(LIMITS.webhookUrlChars, `Keep the URL within ${LIMITS.webhookUrlChars.toLocaleString("en")} characters.`),
  events: z
    .array(webhookEventType)
    .min(1, "Choose at least one event type.")
    .max(LIMITS.webhookEvents)
    .refine((events) => new Set(events).size === events.length, "List each event type once."),
});
export type CreateWebhookInput = z.input<typeof createWebhookInput>;

export const listDeliveriesInput = z.strictObject({
  limit: z.number().int().min(1).max(LIMITS.deliveriesPage).default(50),
  cursor: z.string().max(LIMITS.cursorChars).optional(),
  onInvalidCursor: z.enum(["reject", "restart"] satisfies InvalidCursorPolicy[]).default("reject"),
});
export type ListDeliveriesInput = z.input<typeof listDeliveriesInput>;

const DELIVERY_ORDER: KeysetOrder = { name: "deliveries", direction: "desc" };
const uuid = z.uuid();

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const notFound = () => new AppError("not_found", "No such webhook.");

/** Adds an endpoint; the secret is returned only here (it signs every delivery and is never shown again). */
export async function createWebhook(
  owner: UserBinding,
  raw: CreateWebhookInput,
  policy: TargetPolicy,
): Promise<{ webhook: WebhookEndpoint; secret: string }> {
  const input = parseInput(createWebhookInput, raw);
  const url = checkTargetUrl(input.url, policy);
  const secret = generateWebhookSecret();
  const row = await asUser(owner, async ({ db }) => {
    const existing = await db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, owner.principal.userId));
    if (existing.length >= MAX_ENDPOINTS_PER_USER) {
      throw new AppError("unprocessable", `At most ${MAX_ENDPOINTS_PER_USER} webhooks per user; delete one first.`);
    }
    const [created] = await db
      .insert(webhookEndpoints)
      .values({ userId: owner.principal.userId, url: url.toString(), events: input.events, secret })
      .returning();
    return created as EndpointRow;
  });
  return { webhook: toEndpoint(row), secret };
}

/** The owner's endpoints, newest first, without their secrets. */
export async function listWebhooks(owner: UserBinding): Promise<WebhookEndpoint[]> {
  const rows = await asUser(owner, ({ db }) =>
    db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, owner.principal.userId))
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id)),
  );
  return rows.map(toEndpoint);
}

export async function getWebhook(owner: UserBinding, id: string): Promise<WebhookEndpoint> {
  return toEndpoint(await asUser(owner, ({ db }) => ownEndpoint(db, owner, id)));
}

/** Removes an endpoint with its delivery log; another user's id is not found, like an unknown one. */
export async function deleteWebhook(owner: UserBinding, id: string): Promise<WebhookEndpoint> {
  return asUser(owner, async ({ db }) => {
    const row = await ownEndpoint(db, owner, id);
    await db.delete(webhookEndpoints).where(endpointWhere(owner, row.id));
    return toEndpoint(row);
  });
}

/** Enables an endpoint again (clearing its failure count) or disables it by hand. */
export async function setWebhookEnabled(owner: UserBinding, id: string, enabled: boolean): Promise<WebhookEndpoint> {
  return asUser(owner, async ({ db }) => {
    await ownEndpoint(db, owner, id);
    const [row] = await db
      .update(webhookEndpoints)
      .set(
        enabled
          ? { disabledAt: null, disabledReason: null, consecutiveFailures: 0, updatedAt: new Date() }
          : { disabledAt: new Date(), disabledReason: "Disabled by hand.", updatedAt: new Date() },
      )
      .where(endpointWhere(owner, id))
      .returning();
    return toEndpoint(row as EndpointRow);
  });
}

/** One endpoint's delivery log, newest first, in keyset pages. */
export async function listDeliveries(
  owner: UserBinding,
  endpointId: string,
  raw: ListDeliveriesInput = {},
): Promise<{ deliveries: WebhookDelivery[]; nextCursor: string | null }> {
  const input = parseInput(listDeliveriesInput, raw);
  const position = decodeCursor(input.cursor, DELIVERY_ORDER, { onInvalid: input.onInvalidCursor, idSchema: uuid });
  const rows = await asUser(owner, async ({ db }) => {
    await ownEndpoint(db, owner, endpointId);
    return db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.userId, owner.principal.userId),
          eq(webhookDeliveries.endpointId, endpointId),
          afterPosition(webhookDeliveries.createdAt, webhookDeliveries.id, DELIVERY_ORDER, position),
        ),
      )
      .orderBy(...orderBy(webhookDeliveries.createdAt, webhookDeliveries.id, DELIVERY_ORDER))
      .limit(input.limit + 1);
  });
  const { page, nextCursor } = keysetPage(rows, input.limit, DELIVERY_ORDER, (row) => ({
    at: row.createdAt,
    id: row.id,
  }));
  return { deliveries: page.map(toDelivery), nextCursor };
}

/**
 * Sends a finished delivery (succeeded or failed) once more, by hand: one new attempt, queued once this commits.
 * An endpoint that is disabled must be enabled first.
 */
export async function redeliver(
  owner: UserBinding,
  endpointId: string,
  deliveryId: string,
  schedule: ScheduleWebhookDeliveries,
  now = new Date(),
): Promise<WebhookDelivery> {
  if (!uuid.safeParse(deliveryId).success) throw new AppError("not_found", "No such delivery.");
  return asUser(owner, async (unit) => {
    const endpoint = await ownEndpoint(unit.db, owner, endpointId);
    if (endpoint.disabledAt) throw new AppError("conflict", "The webhook is disabled; enable it before redelivering.");
    const [row] = await unit.db
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt: now })
      .where(
        and(
          eq(webhookDeliveries.userId, owner.principal.userId),
          eq(webhookDeliveries.endpointId, endpoint.id),
          eq(webhookDeliveries.id, deliveryId),
          inArray(webhookDeliveries.status, ["succeeded", "failed"]),
        ),
      )
      .returning();
    if (!row) {
      const [exists] = await unit.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.userId, owner.principal.userId),
            eq(webhookDeliveries.endpointId, endpoint.id),
            eq(webhookDeliveries.id, deliveryId),
          ),
        );
      if (!exists) throw new AppError("not_found", "No such delivery.");
      throw new AppError("conflict", "The delivery is still being attempted.");
    }
    unit.afterCommit(() =>
      schedule([{ userId: owner.principal.userId, deliveryId: row.id, attempt: row.attempts + 1 }]),
    );
    return toDelivery(row);
  });
}

function endpointWhere(owner: UserBinding, id: string): SQL {
  return and(eq(webhookEndpoints.userId, owner.principal.userId), eq(webhookEndpoints.id, id)) as SQL;
}

async function ownEndpoint(
  db: Parameters<Parameters<typeof asUser>[1]>[0]["db"],
  owner: UserBinding,
  id: string,
): Promise<EndpointRow> {
  if (!uuid.safeParse(id).success) throw notFound();
  const [row] = await db.select().from(webhookEndpoints).where(endpointWhere(owner, id));
  if (!row) throw notFound();
  return row;
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEndpoint["events"],
    enabled: row.disabledAt === null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    disabledReason: row.disabledReason,
    consecutiveFailures: row.consecutiveFailures,
    createdAt: row.createdAt.toISOString(),
  };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.endpointId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    payload: row.payload,
  };
}

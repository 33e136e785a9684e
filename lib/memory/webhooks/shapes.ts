import { z } from "zod";
import { webhookEventType } from "./events";

/** The webhook JSON of the HTTP contract (docs/api.md); the OpenAPI document and the console derive from these. */
export const webhookJson = z.strictObject({
  id: z.uuid(),
  url: z.string(),
  events: z.array(webhookEventType),
  enabled: z.boolean(),
  disabledAt: z.iso.datetime().nullable(),
  disabledReason: z.string().nullable().describe("Why deliveries stopped, e.g. after repeated failures."),
  consecutiveFailures: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type WebhookEndpoint = z.infer<typeof webhookJson>;

export const webhookDeliveryJson = z.strictObject({
  id: z.uuid().describe("Also the `webhook-id` header: the same on every attempt, for receivers to dedupe by."),
  webhookId: z.uuid(),
  eventType: z.string(),
  status: z.enum(["pending", "sending", "succeeded", "failed"]),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastAttemptAt: z.iso.datetime().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  payload: z.record(z.string(), z.unknown()).describe("The body sent: `{ type, timestamp, data }`."),
});
export type WebhookDelivery = z.infer<typeof webhookDeliveryJson>;

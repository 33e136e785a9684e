// Webhooks (docs/api.md): endpoints other apps register, the events a write records in its own transaction (the
// outbox), and their signed delivery with retries, from a worker.
export {
  attemptDelivery,
  DEFAULT_DELIVERY,
  type DeliveryConfig,
  overdueDeliveries,
} from "./deliver";
export {
  createWebhook,
  createWebhookInput,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  setWebhookEnabled,
} from "./endpoints";
export {
  MEMORY_OP_EVENTS,
  proposalEvent,
  purgedMemoryData,
  runCompletedEvent,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  webhookEventType,
} from "./events";
export { recordWebhookEvents, reduceToIds, type ScheduledDelivery, type ScheduleWebhookDeliveries } from "./outbox";
export { pruneWebhookDeliveries } from "./retention";
export { type WebhookDelivery, type WebhookEndpoint, webhookDeliveryJson, webhookJson } from "./shapes";
export type { TargetPolicy } from "./targets";

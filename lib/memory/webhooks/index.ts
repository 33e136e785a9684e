export {
  attemptDelivery,
  backoffDelayMs,
  DEFAULT_DELIVERY,
  type DeliveryConfig,
  type DeliveryOutcome,
  overdueDeliveries,
} from "./deliver";
export {
  type CreateWebhookInput,
  createWebhook,
  createWebhookInput,
  deleteWebhook,
  getWebhook,
  type ListDeliveriesInput,
  listDeliveries,
  listDeliveriesInput,
  listWebhooks,
  MAX_ENDPOINTS_PER_USER,
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
  type WebhookEventType,
  webhookEventType,
} from "./events";
export { recordWebhookEvents, reduceToIds, type ScheduledDelivery, type ScheduleWebhookDeliveries } from "./outbox";
export { type PruneDeliveriesOptions, pruneWebhookDeliveries } from "./retention";
export { type WebhookDelivery, type WebhookEndpoint, webhookDeliveryJson, webhookJson } from "./shapes";
export { generateWebhookSecret, signWebhook, webhookHeaders } from "./signing";
export { checkTargetUrl, isNonPublicAddress, type Lookup, resolveTarget, type TargetPolicy } from "./targets";

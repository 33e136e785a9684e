import { z } from "zod";
import type { ApiKeyScope } from "@/lib/auth/api-keys";
import { getDatabase } from "@/lib/db";
import { LIMITS } from "@/lib/memory/contract";
import { createWebhookInput, webhookDeliveryJson, webhookJson } from "@/lib/memory/webhooks";
import { type Caller, requireScope } from "./caller";

/** Request and response shapes of /api/v1/webhooks (docs/api.md); the OpenAPI document is generated from these. */
export const createWebhookBody = createWebhookInput;

export const createdWebhookResponse = z.strictObject({
  webhook: webhookJson,
  secret: z.string().describe("The signing secret (`whsec_…`). Shown only in this response; store it now."),
});
export const webhookListResponse = z.strictObject({ webhooks: z.array(webhookJson) });
export const webhookResponse = z.strictObject({ webhook: webhookJson });
export const updateWebhookBody = z.strictObject({ enabled: z.boolean() });
export const deliveryListResponse = z.strictObject({
  deliveries: z.array(webhookDeliveryJson),
  nextCursor: z.string().nullable(),
});
export const deliveryResponse = z.strictObject({ delivery: webhookDeliveryJson });

export const deliveryListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(LIMITS.deliveriesPage).optional(),
  cursor: z.string().max(LIMITS.cursorChars).optional(),
});

/**
 * Who may manage webhooks: the signed-in user, or a key with both scopes. Deliveries carry memories' content, so
 * adding an endpoint is a read as much as a write; listing needs `read`.
 */
export async function webhookOwner(caller: Caller, scopes: readonly ApiKeyScope[]) {
  for (const scope of scopes) requireScope(caller, scope);
  return { database: await getDatabase(), principal: caller.principal };
}

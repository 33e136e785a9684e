"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionAction } from "@/lib/api/session-action";
import { type ActionResult, parseInput } from "@/lib/errors";
import {
  createWebhook,
  createWebhookInput,
  deleteWebhook,
  redeliver,
  setWebhookEnabled,
  webhookEventType,
} from "@/lib/memory/webhooks";
import { getJobQueue } from "@/lib/server/jobs";
import { webhookPolicy, webhookWiring } from "@/lib/server/webhooks";

/** Null before the form is first sent. */
export type CreateWebhookState = ActionResult<{ url: string; secret: string }> | null;

const createWebhookForm = z
  .instanceof(FormData)
  .transform((form) => ({ url: form.get("url") ?? "", events: form.getAll("events") }))
  .pipe(z.strictObject({ url: z.string(), events: z.array(webhookEventType) }));

const createFromForm = sessionAction(createWebhookForm, async (fields, owner) => {
  const { webhook, secret } = await createWebhook(owner, parseInput(createWebhookInput, fields), webhookPolicy());
  revalidatePath("/settings/webhooks");
  return { url: webhook.url, secret };
});

export async function createWebhookAction(_previous: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  return createFromForm(form);
}

const webhookId = z.string().max(100);

export const setWebhookEnabledAction = sessionAction(
  z.strictObject({ id: webhookId, enabled: z.boolean() }),
  async (input, owner) => {
    await setWebhookEnabled(owner, input.id, input.enabled);
    revalidatePath("/settings/webhooks");
    return {};
  },
);

export const deleteWebhookAction = sessionAction(webhookId, async (id, owner) => {
  await deleteWebhook(owner, id);
  revalidatePath("/settings/webhooks");
  return {};
});

export const redeliverAction = sessionAction(
  z.strictObject({ webhookId, deliveryId: z.string().max(100) }),
  async (input, owner) => {
    const schedule = webhookWiring(getJobQueue).scheduleWebhookDeliveries;
    if (!schedule) throw new Error("No queue to deliver with.");
    await redeliver(owner, input.webhookId, input.deliveryId, schedule);
    revalidatePath("/settings/webhooks");
    return {};
  },
);

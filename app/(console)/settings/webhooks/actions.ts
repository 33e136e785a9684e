"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionPrincipal } from "@/lib/api/caller";
import { getDatabase } from "@/lib/db";
import { type ActionResult, parseInput, settleAction } from "@/lib/errors";
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

const createWebhookForm = z.strictObject({ url: z.string(), events: z.array(webhookEventType) });

async function requireUser() {
  const principal = await actionPrincipal();
  return { database: await getDatabase(), principal };
}

export async function createWebhookAction(_previous: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  return settleAction(async () => {
    const user = await requireUser();
    const fields = parseInput(createWebhookForm, { url: form.get("url") ?? "", events: form.getAll("events") });
    const { webhook, secret } = await createWebhook(user, parseInput(createWebhookInput, fields), webhookPolicy());
    revalidatePath("/settings/webhooks");
    return { url: webhook.url, secret };
  });
}

export async function setWebhookEnabledAction(id: string, enabled: boolean): Promise<ActionResult> {
  return settleAction(async () => {
    const user = await requireUser();
    await setWebhookEnabled(user, parseInput(z.string().max(100), id), parseInput(z.boolean(), enabled));
    revalidatePath("/settings/webhooks");
    return {};
  });
}

export async function deleteWebhookAction(id: string): Promise<ActionResult> {
  return settleAction(async () => {
    const user = await requireUser();
    await deleteWebhook(user, parseInput(z.string().max(100), id));
    revalidatePath("/settings/webhooks");
    return {};
  });
}

export async function redeliverAction(webhookId: string, deliveryId: string): Promise<ActionResult> {
  return settleAction(async () => {
    const user = await requireUser();
    const schedule = webhookWiring(getJobQueue).scheduleWebhookDeliveries;
    if (!schedule) throw new Error("No queue to deliver with.");
    await redeliver(
      user,
      parseInput(z.string().max(100), webhookId),
      parseInput(z.string().max(100), deliveryId),
      schedule,
    );
    revalidatePath("/settings/webhooks");
    return {};
  });
}

import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/api/body";
import { callerRoute } from "@/lib/api/handler";
import { updateWebhookBody, webhookOwner } from "@/lib/api/webhook-requests";
import { parseInput } from "@/lib/errors";
import { deleteWebhook, getWebhook, setWebhookEnabled } from "@/lib/memory/webhooks";

export const dynamic = "force-dynamic";

/** Another user's webhook id is a 404, exactly like an unknown one. */
export const GET = callerRoute<{ id: string }>(async ({ params, caller }) => {
  return NextResponse.json({ webhook: await getWebhook(await webhookOwner(caller, ["read"]), params.id) });
});

/** `{ enabled: true }` turns a webhook disabled after repeated failures back on (and resets its failure count). */
export const PATCH = callerRoute<{ id: string }>(async ({ request, params, caller }) => {
  const owner = await webhookOwner(caller, ["read", "write"]);
  const body = parseInput(updateWebhookBody, await readJsonBody(request));
  return NextResponse.json({ webhook: await setWebhookEnabled(owner, params.id, body.enabled) });
});

export const DELETE = callerRoute<{ id: string }>(async ({ params, caller }) => {
  const owner = await webhookOwner(caller, ["read", "write"]);
  return NextResponse.json({ webhook: await deleteWebhook(owner, params.id) });
});

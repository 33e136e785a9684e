import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/api/body";
import { callerRoute } from "@/lib/api/handler";
import { createWebhookBody, webhookOwner } from "@/lib/api/webhook-requests";
import { parseInput } from "@/lib/errors";
import { createWebhook, listWebhooks } from "@/lib/memory/webhooks";
import { webhookPolicy } from "@/lib/server/webhooks";

export const dynamic = "force-dynamic";

/** Adds an endpoint; the signing secret is in this response only. */
export const POST = callerRoute(async ({ request, caller }) => {
  const owner = await webhookOwner(caller, ["read", "write"]);
  const body = parseInput(createWebhookBody, await readJsonBody(request));
  const { webhook, secret } = await createWebhook(owner, body, webhookPolicy());
  return NextResponse.json({ webhook, secret }, { status: 201 });
});

export const GET = callerRoute(async ({ caller }) => {
  return NextResponse.json({ webhooks: await listWebhooks(await webhookOwner(caller, ["read"])) });
});

import { NextResponse } from "next/server";
import { callerRoute } from "@/lib/api/handler";
import { webhookOwner } from "@/lib/api/webhook-requests";
import { redeliver } from "@/lib/memory/webhooks";
import { getJobQueue } from "@/lib/server/jobs";

export const dynamic = "force-dynamic";

/** Sends a finished delivery once more (same `webhook-id`, so receivers that already have it can drop it). */
export const POST = callerRoute<{ id: string; deliveryId: string }>(async ({ params, caller }) => {
  const owner = await webhookOwner(caller, ["read", "write"]);
  const delivery = await redeliver(owner, params.id, params.deliveryId, async (deliveries) =>
    (await getJobQueue()).sendWebhookDeliveries(deliveries),
  );
  return NextResponse.json({ delivery }, { status: 202 });
});

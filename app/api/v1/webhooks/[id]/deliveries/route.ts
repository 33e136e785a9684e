import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { callerRoute } from "@/lib/api/handler";
import { deliveryListQuery, webhookOwner } from "@/lib/api/webhook-requests";
import { parseInput } from "@/lib/errors";
import { listDeliveries } from "@/lib/memory/webhooks";

export const dynamic = "force-dynamic";

/** The webhook's delivery log, newest first: status code, attempts, last error and timestamps of each. */
export const GET = callerRoute<{ id: string }>(async ({ request, params, caller }) => {
  const owner = await webhookOwner(caller, ["read"]);
  const query = parseInput(deliveryListQuery, queryParams(request));
  return NextResponse.json(await listDeliveries(owner, params.id, query));
});

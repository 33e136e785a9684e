import { NextResponse } from "next/server";
import { parseRequest, readJsonBody } from "@/lib/api/body";
import { requireSession } from "@/lib/api/caller";
import { callerRoute } from "@/lib/api/handler";
import { createKeyBody } from "@/lib/api/key-requests";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { getDatabase } from "@/lib/db";

export const dynamic = "force-dynamic";

export const POST = callerRoute(async ({ request, caller }) => {
  requireSession(caller, "issue API keys");
  const body = parseRequest(createKeyBody, await readJsonBody(request));
  const { db } = await getDatabase();
  const { id, key } = await createApiKey(db, caller.principal.userId, body);
  return NextResponse.json({ id, key }, { status: 201 });
});

export const GET = callerRoute(async ({ caller }) => {
  const { db } = await getDatabase();
  return NextResponse.json({ keys: await listApiKeys(db, caller.principal.userId) });
});

import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/api/body";
import { requireSession } from "@/lib/api/caller";
import { callerRoute } from "@/lib/api/handler";
import { createKeyBody } from "@/lib/api/key-requests";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { getDatabase } from "@/lib/db";
import { parseInput } from "@/lib/errors";

export const dynamic = "force-dynamic";

export const POST = callerRoute(async ({ request, caller }) => {
  requireSession(caller, "issue API keys");
  const body = parseInput(createKeyBody, await readJsonBody(request));
  const { id, key } = await createApiKey({ database: await getDatabase(), principal: caller.principal }, body);
  return NextResponse.json({ id, key }, { status: 201 });
});

// Listing is session-only like issuing: a key, whatever its scopes, would otherwise learn its siblings' names,
// prefixes and scopes.
export const GET = callerRoute(async ({ caller }) => {
  requireSession(caller, "list API keys");
  return NextResponse.json({ keys: await listApiKeys({ database: await getDatabase(), principal: caller.principal }) });
});

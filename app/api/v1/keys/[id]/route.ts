import { NextResponse } from "next/server";
import { requireSession } from "@/lib/api/caller";
import { callerRoute } from "@/lib/api/handler";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { getDatabase } from "@/lib/db";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Revokes the key; another user's key id is a 404, exactly like an unknown one. */
export const DELETE = callerRoute<{ id: string }>(async ({ params, caller }) => {
  requireSession(caller, "revoke API keys");
  const key = await revokeApiKey({ database: await getDatabase(), principal: caller.principal }, params.id);
  if (!key) throw new AppError("not_found", "No such API key.");
  return NextResponse.json({ key });
});

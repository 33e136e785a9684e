import { NextResponse } from "next/server";
import { requireSession } from "@/lib/api/caller";
import { ApiError } from "@/lib/api/errors";
import { callerRoute } from "@/lib/api/handler";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { getDatabase } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Revokes the key; another user's key id is a 404, exactly like an unknown one. */
export const DELETE = callerRoute<{ id: string }>(async ({ params, caller }) => {
  requireSession(caller, "revoke API keys");
  const { db } = await getDatabase();
  const key = await revokeApiKey(db, caller.principal.userId, params.id);
  if (!key) throw new ApiError("not_found", "No such API key.");
  return NextResponse.json({ key });
});

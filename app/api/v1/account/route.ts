import { NextResponse } from "next/server";
import { deleteAccountInput } from "@/lib/account/confirmation";
import { deleteAccount } from "@/lib/account/delete-account";
import { readOptionalJsonBody } from "@/lib/api/body";
import { requireSession } from "@/lib/api/caller";
import { callerRoute } from "@/lib/api/handler";
import { getDatabase } from "@/lib/db";
import { parseInput } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Deletes the signed-in person's account and everything that is theirs (docs/security.md). */
export const DELETE = callerRoute(async ({ request, caller }) => {
  requireSession(caller, "delete the account");
  parseInput(deleteAccountInput, await readOptionalJsonBody(request));
  return NextResponse.json(await deleteAccount(await getDatabase(), caller.principal.userId));
});

import { requireSession } from "@/lib/api/caller";
import { callerRoute } from "@/lib/api/handler";
import { revokeSessions } from "@/lib/auth/session-validity";
import { getDatabase } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Sign out everywhere: every session cookie of the caller, this one included, answers 401 afterwards. */
export const POST = callerRoute(async ({ caller }) => {
  requireSession(caller, "sign out sessions");
  await revokeSessions((await getDatabase()).unbound.db, caller.principal.userId);
  return new Response(null, { status: 204 });
});

import { redirect } from "next/navigation";
import type { NextRequest } from "next/server";
import { rateLimitedResponse, takeAuthAttempt } from "@/lib/api/auth-rate-limit";
import { clientAddress } from "@/lib/api/client-address";
import { errorResponse } from "@/lib/api/errors";
import { isCrossSiteSubrequest } from "@/lib/api/origin";
import { auth, guestsEnabled, signIn } from "@/lib/auth/authjs";
import { safeRedirectPath } from "@/lib/auth/redirect";

/** Creates a guest user and signs them in. Another site may link here, but not make a browser do it unseen. */
export async function GET(request: NextRequest) {
  if (isCrossSiteSubrequest(request)) {
    return errorResponse("forbidden", "Cross-site request refused: open this link in the browser instead.");
  }
  const redirectTo = safeRedirectPath(request.nextUrl.searchParams.get("redirectUrl"));
  if (!guestsEnabled()) redirect(`/login?callbackUrl=${encodeURIComponent(redirectTo)}`);
  const session = await auth();
  if (session?.user?.id) redirect(redirectTo);
  const decision = await takeAuthAttempt({ kind: "guest", address: clientAddress(request.headers) });
  if (!decision.allowed) return rateLimitedResponse("guest", decision.retryAfterSeconds);
  // Auth.js would redirect to an absolute URL built from X-Forwarded-Host; the bare path keeps visitors on this site.
  await signIn("guest", { redirect: false });
  redirect(redirectTo);
}

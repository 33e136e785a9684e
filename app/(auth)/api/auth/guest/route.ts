import { redirect } from "next/navigation";
import type { NextRequest } from "next/server";
import { auth, guestsEnabled, signIn } from "@/app/(auth)/auth";
import { rateLimitedResponse, takeAuthAttempt } from "@/lib/api/auth-rate-limit";
import { clientAddress } from "@/lib/api/client-address";
import { safeRedirectPath } from "@/lib/auth/redirect";

export async function GET(request: NextRequest) {
  const redirectTo = safeRedirectPath(request.nextUrl.searchParams.get("redirectUrl"));
  if (!guestsEnabled()) redirect(`/login?callbackUrl=${encodeURIComponent(redirectTo)}`);
  const session = await auth();
  if (session?.user?.id) redirect(redirectTo);
  const decision = takeAuthAttempt({ kind: "guest", address: clientAddress(request.headers) });
  if (!decision.allowed) return rateLimitedResponse("guest", decision.retryAfterSeconds);
  // Auth.js would redirect to an absolute URL built from X-Forwarded-Host; the bare path keeps visitors on this site.
  await signIn("guest", { redirect: false });
  redirect(redirectTo);
}

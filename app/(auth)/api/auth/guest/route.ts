import { redirect } from "next/navigation";
import type { NextRequest } from "next/server";
import { auth, guestsEnabled, signIn } from "@/app/(auth)/auth";
import { safeRedirectPath } from "@/lib/auth/redirect";

export async function GET(request: NextRequest) {
  const redirectTo = safeRedirectPath(request.nextUrl.searchParams.get("redirectUrl"));
  if (!guestsEnabled()) redirect(`/login?callbackUrl=${encodeURIComponent(redirectTo)}`);
  const session = await auth();
  if (session?.user?.id) redirect(redirectTo);
  await signIn("guest", { redirectTo });
}

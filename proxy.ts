import { type NextFetchEvent, type NextMiddleware, type NextRequest, NextResponse } from "next/server";
import NextAuth from "next-auth";
import { authConfig } from "@/app/(auth)/auth.config";
import { resolveAuthSecret } from "@/lib/auth/secret";

const PUBLIC_PAGES = new Set(["/login", "/register"]);

function createGate(): NextMiddleware {
  const { auth } = NextAuth({ ...authConfig, secret: resolveAuthSecret() });
  const gate = auth((request) => {
    const { pathname, search } = request.nextUrl;
    if (request.auth?.user || PUBLIC_PAGES.has(pathname)) return NextResponse.next();
    const target = encodeURIComponent(pathname + search);
    const url =
      process.env.AUTH_GUESTS === "false" ? `/login?callbackUrl=${target}` : `/api/auth/guest?redirectUrl=${target}`;
    return NextResponse.redirect(new URL(url, request.nextUrl.origin));
  });
  // Auth.js types the wrapper with its route-handler overload; at runtime it is proxy-shaped.
  return gate as unknown as NextMiddleware;
}

// Built on first request rather than at import, so a build without AUTH_SECRET never needs one.
let gate: NextMiddleware | undefined;

/** Pages need a session: visitors get a guest one (unless AUTH_GUESTS=false) or are sent to sign in. */
export function proxy(request: NextRequest, event: NextFetchEvent) {
  gate ??= createGate();
  return gate(request, event);
}

export const config = {
  // API routes answer 401 JSON themselves; static assets need no session.
  matcher: ["/((?!api/|_next/|favicon\\.ico|.*\\.(?:png|svg|ico|webp|woff2|txt)$).*)"],
};

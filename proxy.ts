import { type NextFetchEvent, type NextMiddleware, type NextRequest, NextResponse } from "next/server";
import NextAuth from "next-auth";
import { authConfig } from "@/app/(auth)/auth.config";
import { errorResponse } from "@/lib/api/errors";
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

/**
 * Pages need a session: visitors get a guest one (unless AUTH_GUESTS=false) or are sent to sign in. API routes answer
 * 401 JSON themselves and pass through here only for the path check.
 */
export function proxy(request: NextRequest, event: NextFetchEvent) {
  const { pathname } = request.nextUrl;
  // Next.js answers a bare 500 when a dynamic segment is not percent-encoded UTF-8 (`/api/v1/memories/%FF`).
  if (!decodable(pathname)) return errorResponse("bad_request", "The path is not valid percent-encoded UTF-8.");
  if (pathname.startsWith("/api/")) return NextResponse.next();
  gate ??= createGate();
  return gate(request, event);
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // Static assets need no session.
  matcher: ["/((?!_next/|favicon\\.ico|.*\\.(?:png|svg|ico|webp|woff2|txt)$).*)"],
};

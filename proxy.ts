import { type NextFetchEvent, type NextMiddleware, type NextRequest, NextResponse } from "next/server";
import { errorResponse } from "@/lib/api/errors";
import { auth } from "@/lib/auth/authjs";
import { config as settings } from "@/lib/config";
import { createNonce, pageContentSecurityPolicy } from "@/lib/security/headers";

const PUBLIC_PAGES = new Set(["/login", "/register"]);
const CSP = "content-security-policy";

async function createGate(): Promise<NextMiddleware> {
  // The app's own Auth.js instance: its jwt callback checks the cookie against the user's row (deleted account,
  // signed out everywhere), as for every other request. Proxy runs on Node.js in Next.js 16, so the database is at hand.
  const wrapped: unknown = auth((request) => {
    const nonce = createNonce();
    const policy = pageContentSecurityPolicy(nonce, { development: settings().NODE_ENV === "development" });
    const { pathname, search } = request.nextUrl;
    let response: NextResponse;
    if (request.auth?.user || PUBLIC_PAGES.has(pathname)) {
      // Next.js takes the nonce for its own scripts from the request's CSP header; the layout reads x-nonce.
      const headers = new Headers(request.headers);
      headers.set(CSP, policy);
      headers.set("x-nonce", nonce);
      response = NextResponse.next({ request: { headers } });
    } else {
      const target = encodeURIComponent(pathname + search);
      const url = settings().AUTH_GUESTS ? `/api/auth/guest?redirectUrl=${target}` : `/login?callbackUrl=${target}`;
      response = NextResponse.redirect(new URL(url, request.nextUrl.origin));
    }
    response.headers.set(CSP, policy);
    return response;
  });
  // Auth.js types the wrapper as a route handler returned at once; with its configuration read lazily (./lib/auth/
  // authjs.ts) it is a promise of one, and at runtime it is proxy-shaped.
  return (await wrapped) as NextMiddleware;
}

let gate: Promise<NextMiddleware> | undefined;

/**
 * Pages need a session: visitors get a guest one (unless AUTH_GUESTS=false) or are sent to sign in. Every page
 * response gets a Content-Security-Policy with a fresh script nonce (the other security headers come from
 * next.config.ts, which also covers API routes). API routes answer 401 JSON themselves and pass through here only
 * for the path check.
 */
export async function proxy(request: NextRequest, event: NextFetchEvent) {
  const { pathname } = request.nextUrl;
  // Next.js answers a bare 500 when a dynamic segment is not percent-encoded UTF-8 (`/api/v1/memories/%FF`).
  if (!decodable(pathname)) return errorResponse("bad_request", "The path is not valid percent-encoded UTF-8.");
  if (pathname.startsWith("/api/")) return NextResponse.next();
  // A server action checks its own caller (actionPrincipal). Through the gate, its response would also carry the
  // session cookie Auth.js re-issues on every read, which can land after the action's own cookie change: sign-out
  // then kept the session it had just ended.
  if (request.method === "POST" && request.headers.has("next-action")) return NextResponse.next();
  gate ??= createGate();
  const response = await (await gate)(request, event);
  // Auth.js writes the session cookie anew on every read of it. A read the router makes in the background (a link's
  // prefetch, a navigation's RSC payload) may still be in flight when the user signs out, and its answer, landing
  // after the sign-out's, would bring the ended session back. Only a page loaded as a document renews the cookie.
  // Next.js strips its own RSC headers before the proxy runs; the browser's Sec-Fetch-Dest says what the read is for
  // ("document" for a page load, "empty" for the router's fetches; absent from clients that are not browsers).
  const destination = request.headers.get("sec-fetch-dest");
  if (response instanceof Response && destination !== null && destination !== "document") {
    dropSessionCookie(response.headers);
  }
  return response;
}

const SESSION_COOKIE = /^(?:__Secure-)?authjs\.session-token(?:\.\d+)?=/;

function dropSessionCookie(headers: Headers) {
  const kept = headers.getSetCookie().filter((line) => !SESSION_COOKIE.test(line));
  headers.delete("set-cookie");
  for (const line of kept) headers.append("set-cookie", line);
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
  // Static assets need no session and run no scripts. API routes answer 401 JSON themselves, and running the proxy
  // for them cost about 0.6 ms a request: it runs only for API paths holding a percent sign, where the one thing it
  // does for them (the check above) can matter.
  matcher: ["/((?!api/|_next/|favicon\\.ico|.*\\.(?:png|svg|ico|webp|woff2|txt)$).*)", "/api/:path(.*%.*)"],
};

import "../support/route-mocks";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { beforeEach, expect, it, vi } from "vitest";
import { describeEachDatabase } from "../support/databases";
import { setEnv } from "../support/env";
import { routeHarness } from "../support/route-harness";
import { CookieJar, cookiesFrom, outcomeOf } from "./support";

// The real session: Auth.js reads the cookie and checks it against the user's row, as every request does.
vi.doUnmock("@/lib/auth/session");
setEnv({ AUTH_SECRET: "sessions-test-secret-0123456789abcdef" });

const nextauth = await import("@/app/(auth)/api/auth/[...nextauth]/route");
const me = await import("@/app/api/v1/me/route");
const revoke = await import("@/app/api/v1/sessions/revoke/route");
const { proxy } = await import("@/proxy");
const { registerUser } = await import("@/lib/auth/users");
const { changeAdmin } = await import("@/lib/auth/admins");
const { createApiKey } = await import("@/lib/auth/api-keys");

const ORIGIN = "http://localhost";
const PASSWORD = "correct horse battery";
let unique = 0;

function baseHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { host: "localhost", "x-forwarded-proto": "http", "x-forwarded-for": "203.0.113.77", ...extra };
}

/** Signs in with the password over Auth.js's own endpoints and returns the session cookie it set. */
async function signIn(email: string): Promise<string> {
  const csrf = await nextauth.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: baseHeaders() }));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await nextauth.POST(
    new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: baseHeaders({ "content-type": "application/x-www-form-urlencoded", cookie: cookiesFrom(csrf) }),
      body: new URLSearchParams({ csrfToken, email, password: PASSWORD }).toString(),
    }),
  );
  const session = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .find((pair) => pair.startsWith("authjs.session-token="));
  if (!session) throw new Error(`sign-in for ${email} set no session cookie (status ${response.status})`);
  return session;
}

type Route = (request: Request, context: { params: Promise<Record<string, never>> }) => Promise<Response>;

/** A request as Next.js hands it to a route: next/headers sees the same headers (and so the same cookie). */
async function send(route: Route, method: string, path: string, headers: Record<string, string>) {
  routeHarness.requestHeaders = new Headers(baseHeaders(headers));
  const request = new Request(`${ORIGIN}${path}`, { method, headers: baseHeaders(headers) });
  return outcomeOf(await route(request, { params: Promise.resolve({}) }));
}

const whoAmI = (cookie: string) => send(me.GET as Route, "GET", "/api/v1/me", { cookie });
const signOutEverywhere = (headers: Record<string, string>) =>
  send(revoke.POST as Route, "POST", "/api/v1/sessions/revoke", { origin: ORIGIN, ...headers });

async function page(path: string, cookie: string, extra: Record<string, string> = {}) {
  const request = new NextRequest(`${ORIGIN}${path}`, { headers: baseHeaders({ cookie, ...extra }) });
  return (await proxy(request, {} as never)) as Response;
}

const sessionCookieOf = (response: Response) =>
  response.headers.getSetCookie().filter((line) => line.startsWith("authjs.session-token="));

describeEachDatabase("sessions checked against the user's row", (use) => {
  let email: string;
  let userId: string;

  beforeEach(async () => {
    routeHarness.database = use();
    routeHarness.cookies = new CookieJar();
    setEnv({ AUTH_GUESTS: "true", ADMIN_EMAILS: "" });
    email = `person-${++unique}@example.com`;
    userId = (await registerUser(use().unbound.db, { email, password: PASSWORD })).id;
  });

  it("signs every session out when one of them signs out everywhere, itself included; a new sign-in works", async () => {
    const laptop = await signIn(email);
    const phone = await signIn(email);
    expect((await whoAmI(laptop)).json).toMatchObject({ userId });
    expect((await whoAmI(phone)).json).toMatchObject({ userId });

    const revoked = await signOutEverywhere({ cookie: phone });
    expect(revoked.status).toBe(204);

    for (const cookie of [laptop, phone]) {
      const outcome = await whoAmI(cookie);
      expect(outcome.status).toBe(401);
      expect(outcome.json).toMatchObject({ error: { code: "unauthorized" } });
      // Pages treat it as no session at all: a guest session, as for any visitor without one.
      expect((await page("/memories", cookie)).headers.get("location")).toContain("/api/auth/guest");
    }
    expect((await signOutEverywhere({ cookie: laptop })).status).toBe(401);
    expect((await whoAmI(await signIn(email))).json).toMatchObject({ userId });
  });

  it("refuses sign-out-everywhere to an API key, as other session-only routes do, and changes nothing", async () => {
    const cookie = await signIn(email);
    const { key } = await createApiKey(
      { database: use(), principal: { userId } },
      { name: "ci", scopes: ["read", "write"] },
    );
    const outcome = await signOutEverywhere({ authorization: `Bearer ${key}` });
    expect(outcome.status).toBe(403);
    expect(outcome.json).toMatchObject({ error: { code: "forbidden" } });
    expect((await whoAmI(cookie)).status).toBe(200);
  });

  it("renews the session cookie on a page loaded as a document, never on the router's background reads", async () => {
    const cookie = await signIn(email);
    expect(sessionCookieOf(await page("/memories", cookie, { "sec-fetch-dest": "document" }))).toHaveLength(1);
    expect(sessionCookieOf(await page("/memories", cookie))).toHaveLength(1);
    // A prefetch or RSC payload still in flight at sign-out would otherwise put the ended session back. Next.js has
    // stripped its RSC headers by the time the proxy runs; the browser's Sec-Fetch-Dest is what remains.
    const prefetch = await page("/settings", cookie, { "sec-fetch-dest": "empty" });
    expect(prefetch.headers.get("x-middleware-next")).toBe("1");
    expect(sessionCookieOf(prefetch)).toEqual([]);
  });

  it("answers 401 to the cookie of a user whose row is gone, on API routes and pages alike", async () => {
    const cookie = await signIn(email);
    expect((await page("/memories", cookie)).headers.get("x-middleware-next")).toBe("1");
    await use().unbound.rows(sql`delete from users where id = ${userId}::uuid`);
    expect((await whoAmI(cookie)).status).toBe(401);
    expect((await page("/memories", cookie)).headers.get("location")).toContain("/api/auth/guest");
  });

  it("keeps the cookie but acts on nothing when the user's row cannot be read", async () => {
    const cookie = await signIn(email);
    routeHarness.database = undefined;
    const failed = await whoAmI(cookie);
    expect(failed.status).toBe(500);
    const gate = await page("/memories", cookie);
    expect(gate.headers.get("x-middleware-next")).toBe("1");
    const sessionCookies = gate.headers.getSetCookie().filter((line) => line.startsWith("authjs.session-token="));
    expect(sessionCookies.every((line) => line.split(";")[0] !== "authjs.session-token=")).toBe(true);
    routeHarness.database = use();
    expect((await whoAmI(cookie)).json).toMatchObject({ userId });
  });

  it("never makes a registered ADMIN_EMAILS address admin; the database flag does, on the next request", async () => {
    setEnv({ ADMIN_EMAILS: email });
    const cookie = await signIn(email);
    expect((await whoAmI(cookie)).json).toMatchObject({ userId, role: "user" });
    await changeAdmin(use().unbound.db, "grant", email);
    expect((await whoAmI(cookie)).json).toMatchObject({ userId, role: "admin" });
    await changeAdmin(use().unbound.db, "revoke", email);
    expect((await whoAmI(cookie)).json).toMatchObject({ userId, role: "user" });
  });
});

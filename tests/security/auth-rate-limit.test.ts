import "../support/route-mocks";
import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { principalFor } from "../api-keys/support";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { setEnv } from "../support/env";
import { routeHarness } from "../support/route-harness";
import { startRouteServer } from "../support/route-server";
import { CookieJar, cookiesFrom, errorMessageOf, type Handler, outcomeOf, settle } from "./support";

setEnv({ AUTH_SECRET: "rate-limit-test-secret-0123456789", AUTH_GUESTS: "true" });

const nextauth = await import("@/app/(auth)/api/auth/[...nextauth]/route");
const guest = await import("@/app/(auth)/api/auth/guest/route");
const actions = await import("@/app/(auth)/actions");
const me = await import("@/app/api/v1/me/route");
const memories = await import("@/app/api/v1/memories/route");
const exportRoute = await import("@/app/(console)/memories/export/route");
const { registerUser } = await import("@/lib/auth/users");
const { clientAddress, recordSocketAddresses, SOCKET_ADDRESS_HEADER, UNKNOWN_CLIENT } = await import(
  "@/lib/api/client-address"
);
const { takeAuthAttempt } = await import("@/lib/api/auth-rate-limit");

const ORIGIN = "http://localhost";
const trusting = (value?: string) => parseConfig({ TRUST_PROXY: value });
const PASSWORD = "correct horse battery";
const FORM = "application/x-www-form-urlencoded";
let unique = 0;
/** A fresh client address and email per test: the limiters live for the whole file. */
const nextAddress = () => `203.0.113.${++unique}`;
const nextEmail = (label: string) => `${label}-${++unique}@example.com`;

function baseHeaders(address?: string): Record<string, string> {
  return { host: "localhost", "x-forwarded-proto": "http", ...(address ? { "x-forwarded-for": address } : {}) };
}

async function csrf(address: string) {
  const response = await nextauth.GET(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: baseHeaders(address) }));
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { token: csrfToken, cookie: cookiesFrom(response) };
}

async function signInOverHttp(address: string, email: string, password: string) {
  const { token, cookie } = await csrf(address);
  const request = new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { ...baseHeaders(address), "content-type": FORM, cookie },
    body: new URLSearchParams({ csrfToken: token, email, password }).toString(),
  });
  return outcomeOf(await nextauth.POST(request));
}

const signedIn = (outcome: { headers: Headers }) =>
  outcome.headers.getSetCookie().some((line) => line.startsWith("authjs.session-token="));

function expectRateLimited(outcome: { status: number; headers: Headers; json: unknown }) {
  expect(outcome.status).toBe(429);
  expect(Number(outcome.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(Number(outcome.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  expect(errorMessageOf(outcome.json)).toMatch(/Too many/);
}

async function guestVisit(address: string) {
  routeHarness.cookies = new CookieJar();
  routeHarness.requestHeaders = new Headers(baseHeaders(address));
  const request = new NextRequest(`${ORIGIN}/api/auth/guest?redirectUrl=%2Fmemories`, {
    headers: baseHeaders(address),
  });
  return outcomeOf(await settle(() => guest.GET(request)));
}

/** The guest route as Next.js runs it: its redirect() becomes a 307. */
const guestRouteAsNextRuns = { GET: (request: Request) => settle(() => guest.GET(new NextRequest(request))) };

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe("client address", () => {
  it("ignores X-Forwarded-For unless TRUST_PROXY says how many proxies append to it", () => {
    const headers = new Headers({ "x-forwarded-for": "198.51.100.7, 203.0.113.9, 10.0.0.2" });
    expect(clientAddress(headers, trusting())).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(headers, trusting("0"))).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(headers, trusting("false"))).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(headers, trusting("true"))).toBe("10.0.0.2");
    expect(clientAddress(headers, trusting("1"))).toBe("10.0.0.2");
    expect(clientAddress(headers, trusting("2"))).toBe("203.0.113.9");
    expect(clientAddress(headers, trusting("5"))).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(new Headers(), trusting("1"))).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(new Headers({ "x-forwarded-for": "x".repeat(500) }), trusting("1"))).toBe(UNKNOWN_CLIENT);
    expect(() => trusting("-1")).toThrow("TRUST_PROXY must be `true` (= 1), `false` (= 0) or a whole number");
  });

  it("counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 address it carries", () => {
    const behind = (address: string) => clientAddress(new Headers({ "x-forwarded-for": address }), trusting("1"));
    expect(behind("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(behind("2001:db8:1:2:ffff:ffff:ffff:fffe")).toBe("2001:db8:1:2::/64");
    expect(behind("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(behind("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(behind("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(behind("::ffff:cb00:7109")).toBe("203.0.113.9");
    expect(behind("203.0.113.9")).toBe("203.0.113.9");
  });
});

describeEachDatabase("auth rate limits", (use, backend) => {
  const usersCount = async () =>
    (await use().unbound.rows<{ n: number }>(sql`select count(*)::int as n from users`))[0]?.n ?? 0;

  beforeAll(() => {
    routeHarness.database = use();
  });

  beforeEach(() => {
    routeHarness.database = use();
    routeHarness.principal = null;
    routeHarness.cookies = new CookieJar();
    routeHarness.requestHeaders = new Headers(baseHeaders());
    setEnv({
      TRUST_PROXY: "1",
      AUTH_RATE_LIMIT_PER_MINUTE: "3",
      AUTH_EMAIL_RATE_LIMIT_PER_MINUTE: "1000",
      API_RATE_LIMIT_PER_MINUTE: "1000",
    });
  });

  it("counts sign-ins per address and per email in one-minute windows", async () => {
    setEnv({ AUTH_RATE_LIMIT_PER_MINUTE: "2", AUTH_EMAIL_RATE_LIMIT_PER_MINUTE: "3" });
    const start = Date.parse("2030-01-01T00:00:00Z");
    const address = nextAddress();
    const email = nextEmail("window");
    expect((await takeAuthAttempt({ kind: "sign-in", address, email }, start)).allowed).toBe(true);
    expect((await takeAuthAttempt({ kind: "sign-in", address, email: email.toUpperCase() }, start)).allowed).toBe(true);
    expect(await takeAuthAttempt({ kind: "sign-in", address, email }, start + 15_000)).toEqual({
      allowed: false,
      retryAfterSeconds: 45,
    });
    // The email is refused from this address only: its owner, elsewhere, has a budget of their own.
    expect((await takeAuthAttempt({ kind: "sign-in", address: nextAddress(), email }, start)).allowed).toBe(true);
    expect(
      (await takeAuthAttempt({ kind: "sign-in", address: nextAddress(), email: ` ${email} ` }, start)).allowed,
    ).toBe(true);
    // Registrations and guests have budgets of their own.
    expect((await takeAuthAttempt({ kind: "register", address }, start)).allowed).toBe(true);
    expect((await takeAuthAttempt({ kind: "guest", address }, start)).allowed).toBe(true);
    // A new window starts a minute later.
    expect(
      (await takeAuthAttempt({ kind: "sign-in", address, email: nextEmail("later") }, start + 60_000)).allowed,
    ).toBe(true);
  });
  it("credential sign-ins over HTTP get 429 with Retry-After once an address is over its limit", async () => {
    const email = nextEmail("http");
    await registerUser(use().unbound.db, { email, password: PASSWORD });
    const address = nextAddress();
    for (let attempt = 0; attempt < 3; attempt++) {
      const outcome = await signInOverHttp(address, email, "wrong password");
      expect(outcome.status).toBe(302);
      expect(signedIn(outcome)).toBe(false);
    }
    // Even the right password is refused now: the limit counts attempts, not failures.
    expectRateLimited(await signInOverHttp(address, email, PASSWORD));
    const elsewhere = await signInOverHttp(nextAddress(), email, PASSWORD);
    expect(signedIn(elsewhere)).toBe(true);
  });

  it("an email guessed at from one address is locked there only: its owner signs in from another", async () => {
    setEnv({ AUTH_EMAIL_RATE_LIMIT_PER_MINUTE: "2" });
    const email = nextEmail("spread");
    await registerUser(use().unbound.db, { email, password: PASSWORD });
    const attacker = nextAddress();
    expect((await signInOverHttp(attacker, email, "guess one")).status).toBe(302);
    expect((await signInOverHttp(attacker, email, "guess two")).status).toBe(302);
    expectRateLimited(await signInOverHttp(attacker, email, PASSWORD));
    // The attacker's address may still try other accounts until its own limit.
    expect(signedIn(await signInOverHttp(attacker, nextEmail("other"), "x"))).toBe(false);
    expect(signedIn(await signInOverHttp(nextAddress(), email, PASSWORD))).toBe(true);
  });

  it("without TRUST_PROXY each socket address has its own budget, whatever the client writes in its headers", async () => {
    setEnv({ TRUST_PROXY: "" });
    recordSocketAddresses();
    const server = await startRouteServer({ "/api/auth/guest": guestRouteAsNextRuns });
    // Loopback is all of 127.0.0.0/8 on Linux: two local addresses are two clients. Each backend has its own pair.
    const [first, second] = backend === "pglite" ? ["127.0.0.2", "127.0.0.3"] : ["127.0.0.4", "127.0.0.5"];
    const visit = (localAddress: string) =>
      new Promise<number>((resolve, reject) => {
        const spoofed = nextAddress();
        const url = new URL("/api/auth/guest?redirectUrl=%2Fmemories", server.origin);
        const outgoing = httpRequest(url, {
          localAddress,
          headers: { "x-forwarded-for": spoofed, [SOCKET_ADDRESS_HEADER]: spoofed },
        });
        outgoing.on("response", (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        });
        outgoing.on("error", reject);
        outgoing.end();
      });
    try {
      const fromFirst = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        routeHarness.cookies = new CookieJar();
        fromFirst.push(await visit(first));
      }
      expect(fromFirst).toEqual([307, 307, 307, 429]);
      routeHarness.cookies = new CookieJar();
      expect(await visit(second)).toBe(307);
    } finally {
      await server.close();
    }
  });

  // A request that reaches a handler without a socket address (called directly, as here) counts as one unknown
  // client: all such share one budget for the minute, so this runs on one backend only.
  it.runIf(backend === "pglite")("without TRUST_PROXY a spoofed X-Forwarded-For buys no fresh budget", async () => {
    setEnv({ TRUST_PROXY: "", AUTH_RATE_LIMIT_PER_MINUTE: "2" });
    const outcomes = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      outcomes.push(await signInOverHttp(nextAddress(), nextEmail("spoof"), "x"));
    }
    expect(outcomes.map((outcome) => outcome.status)).toEqual([302, 302, 429, 429]);
  });

  it("guest sessions are limited per address and the refused ones create no user", async () => {
    const address = nextAddress();
    const before = await usersCount();
    for (let visit = 0; visit < 3; visit++) {
      const outcome = await guestVisit(address);
      expect(outcome.status).toBe(307);
      expect(outcome.headers.get("location")).toBe("/memories");
    }
    expect(await usersCount()).toBe(before + 3);
    const refused = await guestVisit(address);
    expectRateLimited(refused);
    expect(await usersCount()).toBe(before + 3);
    expect((await guestVisit(nextAddress())).status).toBe(307);
  });

  it("the guest callback over HTTP shares the guest limit", async () => {
    const address = nextAddress();
    for (let visit = 0; visit < 3; visit++) expect((await guestVisit(address)).status).toBe(307);
    const before = await usersCount();
    const { token, cookie } = await csrf(address);
    const request = new NextRequest(`${ORIGIN}/api/auth/callback/guest`, {
      method: "POST",
      headers: { ...baseHeaders(address), "content-type": FORM, cookie },
      body: new URLSearchParams({ csrfToken: token }).toString(),
    });
    expectRateLimited(await outcomeOf(await nextauth.POST(request)));
    expect(await usersCount()).toBe(before);
  });

  it("the sign-in and register forms say how long to wait once over the limit", async () => {
    const address = nextAddress();
    routeHarness.requestHeaders = new Headers(baseHeaders(address));
    const email = nextEmail("form");
    await registerUser(use().unbound.db, { email, password: PASSWORD });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await actions.login({}, form({ email, password: "wrong password" }))).error).toBe(
        "Wrong email or password.",
      );
    }
    const refused = await actions.login({}, form({ email, password: PASSWORD }));
    expect(refused.error).toMatch(/^Too many sign-in attempts\. Try again in \d+ seconds?\.$/);
    expect(refused.values).toEqual({ email });

    const before = await usersCount();
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = await actions.register({}, form({ email: nextEmail("reg"), password: "short" }));
      expect(result.fieldErrors?.password).toMatch(/at least 8/);
    }
    const blocked = await actions.register({}, form({ email: nextEmail("reg"), password: PASSWORD }));
    expect(blocked.error).toMatch(/^Too many accounts created from this address\. Try again in \d+ seconds?\.$/);
    expect(await usersCount()).toBe(before);
  });

  it("session-authenticated API calls are limited per user, and each user has their own budget", async () => {
    setEnv({ API_RATE_LIMIT_PER_MINUTE: "3" });
    const first = await createUser(use());
    const second = await createUser(use());
    const call = async (handler: Handler, userId: string, init: RequestInit = {}) => {
      routeHarness.principal = principalFor(userId);
      const request = new Request(`${ORIGIN}/api/v1/memories`, init);
      return outcomeOf(await handler(request, { params: Promise.resolve({}) as Promise<never> }));
    };
    expect((await call(me.GET, first)).status).toBe(200);
    expect((await call(memories.GET, first)).status).toBe(200);
    const created = await call(memories.POST, first, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "counted" }),
    });
    expect(created.status).toBe(201);
    expectRateLimited(await call(memories.GET, first));
    const refusedWrite = await call(memories.POST, first, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "not stored" }),
    });
    expectRateLimited(refusedWrite);
    expectRateLimited(await call(exportRoute.GET as Handler, first));
    const stored = await use().unbound.rows<{ n: number }>(
      sql`select count(*)::int as n from memories where user_id = ${first}`,
    );
    expect(stored[0]?.n).toBe(1);
    expect((await call(me.GET, second)).status).toBe(200);
  });
});

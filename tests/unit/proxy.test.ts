import { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import { createUser } from "../memory/support";
import { openMigratedPglite } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";

// The gate checks a session cookie against its user's row, in a database of the test's own.
let database: Database | undefined;
vi.mock("@/lib/db", () => ({ getDatabase: async () => database }));

/** The proxy is built on first request, so each test imports a fresh copy under the env it sets. */
async function gate(path: string, sessionToken?: string) {
  vi.resetModules();
  const { proxy } = await import("@/proxy");
  // Next's server sets the forwarded protocol; without it Auth.js assumes https and expects __Secure- cookies.
  const request = new NextRequest(new URL(path, "http://localhost:3000"), {
    headers: { "x-forwarded-proto": "http", host: "localhost:3000" },
  });
  if (sessionToken) request.cookies.set("authjs.session-token", sessionToken);
  return (await proxy(request, {} as never)) as Response;
}

describe("page gate", () => {
  beforeAll(async () => {
    database = await openMigratedPglite();
  });
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(() => {
    setEnv({ AUTH_SECRET: "unit-test-secret-0123456789abcdef" });
  });
  afterEach(() => {
    restoreEnv();
  });

  it("gives a visitor without a session a guest session, then returns them to the page", async () => {
    setEnv({ AUTH_GUESTS: "" });
    const response = await gate("/memories?q=tea");
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/api/auth/guest?redirectUrl=%2Fmemories%3Fq%3Dtea",
    );
  });

  it("sends visitors to sign in when guests are turned off", async () => {
    setEnv({ AUTH_GUESTS: "false" });
    const response = await gate("/memories");
    expect(response.headers.get("location")).toBe("http://localhost:3000/login?callbackUrl=%2Fmemories");
  });

  it("lets a signed-in user through and rejects a cookie signed with another secret", async () => {
    setEnv({ AUTH_GUESTS: "false" });
    const uid = await createUser(database!);
    const claims = { sub: uid, uid, generation: 0, root: ["users", uid] };
    const salt = "authjs.session-token";
    const valid = await encode({ token: claims, secret: "unit-test-secret-0123456789abcdef", salt });
    expect((await gate("/memories", valid)).headers.get("x-middleware-next")).toBe("1");
    const forged = await encode({ token: claims, secret: "someone-elses-secret-0123456789ab", salt });
    expect((await gate("/memories", forged)).headers.get("location")).toContain("/login");
  });

  it("lets API routes through untouched: they answer 401 JSON themselves", async () => {
    setEnv({ AUTH_GUESTS: "" });
    const response = await gate("/api/v1/memories/00000000-0000-4000-8000-000000000000");
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it("answers 400 JSON for a path that is not percent-encoded UTF-8, where Next.js would fail with a 500", async () => {
    for (const path of ["/api/v1/memories/%FF", "/api/auth/%C0%AF", "/memories/%E0%A4%A", "/chat/%ED%A0%80"]) {
      const response = await gate(path);
      expect(response.status, path).toBe(400);
      expect((await response.json()).error.message, path).toMatch(/percent-encoded UTF-8/);
    }
  });

  it("lets the sign-in pages through without a session", async () => {
    setEnv({ AUTH_GUESTS: "false" });
    const response = await gate("/login");
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it("gives each page response its own nonce CSP, hands the same policy and nonce to the render, and covers redirects", async () => {
    setEnv({ AUTH_GUESTS: "false" });
    const passed = await gate("/login");
    const policy = passed.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(policy).toContain("'strict-dynamic'");
    expect(policy).not.toContain("'unsafe-eval'");
    // Next.js forwards x-middleware-request-* to the page render, which reads the nonce from the CSP header.
    expect(passed.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(passed.headers.get("x-middleware-request-x-nonce")).toBe(nonce);

    const again = (await gate("/login")).headers.get("content-security-policy");
    expect(again).not.toBe(policy);
    const redirected = await gate("/memories");
    expect(redirected.headers.get("location")).toContain("/login");
    expect(redirected.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("allows eval in development only, where React rebuilds server error stacks with it", async () => {
    setEnv({ AUTH_GUESTS: "false", NODE_ENV: "development" });
    expect((await gate("/login")).headers.get("content-security-policy")).toContain("'unsafe-eval'");
  });
});

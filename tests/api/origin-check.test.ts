import "../support/route-mocks";
import { NextRequest } from "next/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { crossSiteRefusal, isCrossSiteSubrequest } from "@/lib/api/origin";
import { createApiKey } from "@/lib/auth/api-keys";
import { principalFor } from "../api-keys/support";
import { finalMessage } from "../chat/support";
import { bindingFor, createUser, dumpAllRows } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { routeHarness } from "../support/route-harness";

const signIns = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/auth/authjs", () => ({
  auth: async () => null,
  guestsEnabled: () => true,
  signIn: async (provider: string) => {
    signIns.push(provider);
  },
}));

const collection = await import("@/app/api/v1/memories/route");
const item = await import("@/app/api/v1/memories/[id]/route");
const keys = await import("@/app/api/v1/keys/route");
const keyItem = await import("@/app/api/v1/keys/[id]/route");
const { POST: chat } = await import("@/app/(chat)/api/chat/route");
const langgraphItems = await import("@/app/api/langgraph/store/items/route");
const mcp = await import("@/app/api/mcp/route");
const guest = await import("@/app/(auth)/api/auth/guest/route");

const APP = "http://localhost:3000";
const EVIL = "https://evil.example";

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

async function send<P = Record<string, never>>(
  handler: Handler<P>,
  options: { method: string; path: string; body?: unknown; headers?: Record<string, string>; params?: P },
) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const request = new Request(`${APP}${options.path}`, {
    method: options.method,
    headers: { host: "localhost:3000", "content-type": "application/json", ...options.headers },
    body,
  });
  return handler(request, { params: Promise.resolve(options.params ?? ({} as P)) });
}

const sameOrigin = { origin: APP, "sec-fetch-site": "same-origin" };
const crossOrigin = { origin: EVIL, "sec-fetch-site": "cross-site" };

describe("crossSiteRefusal", () => {
  const request = (method: string, headers: Record<string, string>) =>
    new Request(`${APP}/api/v1/memories`, { method, headers: { host: "localhost:3000", ...headers } });

  it("allows mutations from this app's own origin, with or without a forwarding proxy", () => {
    expect(crossSiteRefusal(request("POST", { origin: APP }))).toBeNull();
    expect(crossSiteRefusal(request("DELETE", { origin: "http://LOCALHOST:3000" }))).toBeNull();
    const proxied = request("PATCH", {
      origin: "https://memory.example.com",
      "x-forwarded-host": "memory.example.com",
    });
    expect(crossSiteRefusal(proxied)).toBeNull();
  });

  it("refuses mutations from another origin, another port, an opaque origin or a sibling site", () => {
    for (const origin of [EVIL, "http://localhost:3001", "null", "not a url"]) {
      expect(crossSiteRefusal(request("POST", { origin })), origin).toMatch(/Cross-site request refused/);
    }
    for (const site of ["cross-site", "same-site"]) {
      expect(crossSiteRefusal(request("PUT", { "sec-fetch-site": site })), site).toMatch(/another site/);
    }
  });

  it("lets safe methods and requests without browser headers through (a non-browser client holds its own cookie)", () => {
    expect(crossSiteRefusal(request("GET", { origin: EVIL }))).toBeNull();
    expect(crossSiteRefusal(request("HEAD", { "sec-fetch-site": "cross-site" }))).toBeNull();
    expect(crossSiteRefusal(request("POST", {}))).toBeNull();
    expect(crossSiteRefusal(request("POST", { "sec-fetch-site": "same-origin" }))).toBeNull();
    expect(crossSiteRefusal(request("POST", { "sec-fetch-site": "none" }))).toBeNull();
  });
});

describe("isCrossSiteSubrequest", () => {
  const request = (headers: Record<string, string>) => new Request(`${APP}/api/auth/guest`, { headers });
  const navigation = { "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };

  it("flags images, fetches and frames another site triggers, but not a link followed from it", () => {
    expect(isCrossSiteSubrequest(request({ "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" }))).toBe(true);
    expect(isCrossSiteSubrequest(request({ "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" }))).toBe(true);
    const frame = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" };
    expect(isCrossSiteSubrequest(request(frame))).toBe(true);
    expect(isCrossSiteSubrequest(request({ "sec-fetch-site": "cross-site", ...navigation }))).toBe(false);
    expect(isCrossSiteSubrequest(request({ "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors" }))).toBe(false);
    expect(isCrossSiteSubrequest(request({}))).toBe(false);
  });
});

describeEachDatabase("cookie-authenticated mutations from another site", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
    signIns.length = 0;
  });

  async function expectRefusedWithoutWrites(attempt: () => Promise<Response>) {
    const before = await dumpAllRows(use());
    const response = await attempt();
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
    expect(await dumpAllRows(use())).toBe(before);
  }

  it("refuses REST writes, key management, chat, LangGraph and MCP with 403 and writes nothing", async () => {
    const created = await send(collection.POST, {
      method: "POST",
      path: "/api/v1/memories",
      body: { content: "User likes tea" },
      headers: sameOrigin,
    });
    expect(created.status).toBe(201);
    const { memory } = (await created.json()) as { memory: { id: string } };
    const key = await createApiKey(bindingFor(use(), me), { name: "k", scopes: ["read", "write"] });

    const forgeries: Record<string, string>[] = [crossOrigin, { "sec-fetch-site": "cross-site" }, { origin: "null" }];
    for (const headers of forgeries) {
      await expectRefusedWithoutWrites(() =>
        send(collection.POST, { method: "POST", path: "/api/v1/memories", body: { content: "forged" }, headers }),
      );
    }
    await expectRefusedWithoutWrites(() =>
      send(item.PATCH, {
        method: "PATCH",
        path: `/api/v1/memories/${memory.id}`,
        body: { content: "forged" },
        headers: crossOrigin,
        params: { id: memory.id },
      }),
    );
    await expectRefusedWithoutWrites(() =>
      send(item.DELETE, {
        method: "DELETE",
        path: `/api/v1/memories/${memory.id}`,
        headers: crossOrigin,
        params: { id: memory.id },
      }),
    );
    await expectRefusedWithoutWrites(() =>
      send(keys.POST, {
        method: "POST",
        path: "/api/v1/keys",
        body: { name: "x", scopes: ["read"] },
        headers: crossOrigin,
      }),
    );
    await expectRefusedWithoutWrites(() =>
      send(keyItem.DELETE, {
        method: "DELETE",
        path: `/api/v1/keys/${key.id}`,
        headers: crossOrigin,
        params: { id: key.id },
      }),
    );
    await expectRefusedWithoutWrites(() =>
      send(chat, {
        method: "POST",
        path: "/api/chat",
        headers: crossOrigin,
        body: {
          id: "forged-thread",
          trigger: "submit-message",
          message: { id: "m1", role: "user", parts: [{ type: "text", text: "Remember that I like coffee" }] },
        },
      }),
    );
    await expectRefusedWithoutWrites(() =>
      send(langgraphItems.PUT, {
        method: "PUT",
        path: "/api/langgraph/store/items",
        headers: crossOrigin,
        body: { namespace: ["prefs"], key: "drink", value: { content: "forged" } },
      }),
    );
    await expectRefusedWithoutWrites(() =>
      send(mcp.POST, {
        method: "POST",
        path: "/api/mcp",
        headers: { ...crossOrigin, accept: "application/json, text/event-stream" },
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "add_memory", arguments: { content: "forged" } },
        },
      }),
    );
  });

  it("accepts the same writes from this app's pages", async () => {
    const langgraph = await send(langgraphItems.PUT, {
      method: "PUT",
      path: "/api/langgraph/store/items",
      headers: sameOrigin,
      body: { namespace: ["prefs"], key: "drink", value: { content: "User drinks tea" } },
    });
    expect(langgraph.status).toBe(204);

    const answer = await send(chat, {
      method: "POST",
      path: "/api/chat",
      headers: sameOrigin,
      body: {
        id: "own-thread",
        trigger: "submit-message",
        message: { id: "m1", role: "user", parts: [{ type: "text", text: "Remember that I like coffee" }] },
      },
    });
    expect(answer.status).toBe(200);
    await finalMessage(answer);
    await Promise.all(routeHarness.pending.splice(0));

    const issued = await send(keys.POST, {
      method: "POST",
      path: "/api/v1/keys",
      headers: sameOrigin,
      body: { name: "own", scopes: ["read"] },
    });
    expect(issued.status).toBe(201);

    const listed = await send(collection.GET, { method: "GET", path: "/api/v1/memories", headers: crossOrigin });
    expect(listed.status).toBe(200);
    const { memories } = (await listed.json()) as { memories: { text: string }[] };
    expect(memories.map((memory) => memory.text).sort()).toEqual(["User drinks tea", "User likes coffee"]);
  });

  it("exempts API keys: a browser never sends one by itself", async () => {
    routeHarness.principal = null;
    const { key } = await createApiKey(bindingFor(use(), me), { name: "k", scopes: ["read", "write"] });
    const response = await send(collection.POST, {
      method: "POST",
      path: "/api/v1/memories",
      body: { content: "Written by a script" },
      headers: { ...crossOrigin, authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(201);
    const langgraph = await send(langgraphItems.PUT, {
      method: "PUT",
      path: "/api/langgraph/store/items",
      headers: { ...crossOrigin, "x-api-key": key },
      body: { namespace: ["prefs"], key: "k", value: { content: "Also by a script" } },
    });
    expect(langgraph.status).toBe(204);
  });

  it("creates guest sessions for links followed from other sites, but not for their images or fetches", async () => {
    routeHarness.principal = null;
    const visit = (headers: Record<string, string>) =>
      guest.GET(new NextRequest(`${APP}/api/auth/guest?redirectUrl=%2Fmemories`, { headers }));
    const subrequest = await visit({
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "no-cors",
      "sec-fetch-dest": "image",
    });
    expect(subrequest?.status).toBe(403);
    expect((await subrequest!.json()).error.code).toBe("forbidden");
    expect(signIns).toEqual([]);

    // The route signs the guest in, then redirects (Next's redirect() throws) to the page asked for.
    const followed = visit({
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
    });
    await expect(followed).rejects.toMatchObject({ digest: expect.stringContaining("/memories") });
    expect(signIns).toEqual(["guest"]);
  });
});

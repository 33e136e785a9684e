import "../support/route-mocks";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, expect, it } from "vitest";
import { apiKeys, auditLog } from "@/lib/db/schema";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { routeHarness } from "../support/route-harness";
import { bearer, call, principalFor } from "./support";

const keys = await import("@/app/api/v1/keys/route");
const keyItem = await import("@/app/api/v1/keys/[id]/route");
const me = await import("@/app/api/v1/me/route");
const collection = await import("@/app/api/v1/memories/route");
const item = await import("@/app/api/v1/memories/[id]/route");
const { GET: history } = await import("@/app/api/v1/memories/[id]/history/route");
const { POST: restore } = await import("@/app/api/v1/memories/[id]/restore/route");
const { POST: search } = await import("@/app/api/v1/memories/search/route");

type Scope = "read" | "write";

/** Every REST memory endpoint once, with a valid body, and whether it needs the write scope. */
function endpoints(id: string) {
  const params = { id };
  return [
    {
      name: "POST /memories",
      write: true,
      run: (h: Record<string, string>) => call(collection.POST, { method: "POST", body: { content: "x" }, headers: h }),
    },
    { name: "GET /memories", write: false, run: (h: Record<string, string>) => call(collection.GET, { headers: h }) },
    {
      name: "GET /memories/:id",
      write: false,
      run: (h: Record<string, string>) => call(item.GET, { params, headers: h }),
    },
    {
      name: "PATCH /memories/:id",
      write: true,
      run: (h: Record<string, string>) =>
        call(item.PATCH, { method: "PATCH", params, body: { content: "y" }, headers: h }),
    },
    {
      name: "DELETE /memories/:id",
      write: true,
      run: (h: Record<string, string>) => call(item.DELETE, { method: "DELETE", params, headers: h }),
    },
    {
      name: "POST /memories/:id/restore",
      write: true,
      run: (h: Record<string, string>) => call(restore, { method: "POST", params, headers: h }),
    },
    {
      name: "GET /memories/:id/history",
      write: false,
      run: (h: Record<string, string>) => call(history, { params, headers: h }),
    },
    {
      name: "POST /memories/search",
      write: false,
      run: (h: Record<string, string>) => call(search, { method: "POST", body: { query: "x" }, headers: h }),
    },
    { name: "GET /me", write: false, run: (h: Record<string, string>) => call(me.GET, { headers: h }) },
  ];
}

describeEachDatabase("API keys on the REST API", (use) => {
  let owner: string;
  let memoryId: string;

  const issue = async (scopes: Scope[], name = "test key") => {
    routeHarness.principal = principalFor(owner);
    const response = await call(keys.POST, { method: "POST", path: "/api/v1/keys", body: { name, scopes } });
    routeHarness.principal = null;
    expect(response.status).toBe(201);
    return response.json as { id: string; key: string };
  };

  beforeEach(async () => {
    routeHarness.database = use();
    owner = await createUser(use());
    routeHarness.principal = principalFor(owner);
    const created = await call(collection.POST, { method: "POST", body: { content: "I drink green tea" } });
    memoryId = created.json.memory.id;
    routeHarness.principal = null;
  });

  afterEach(() => {
    restoreEnv();
  });

  it("issues a key once, lists it without its secret and stores only a hash", async () => {
    const { id, key } = await issue(["read", "write"], "laptop agent");
    expect(key).toMatch(/^ml_[A-Za-z0-9_-]{43}$/);
    routeHarness.principal = principalFor(owner);
    const listed = await call(keys.GET, { path: "/api/v1/keys" });
    expect(listed.status).toBe(200);
    expect(listed.json.keys).toEqual([
      {
        id,
        name: "laptop agent",
        prefix: key.slice(0, 12),
        scopes: ["read", "write"],
        createdAt: expect.any(String),
        lastUsedAt: null,
        expiresAt: null,
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(listed.json)).not.toContain(key);
    const [row] = await use().unbound.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it("validates new keys: name, scopes, a future expiry", async () => {
    routeHarness.principal = principalFor(owner);
    for (const body of [
      { name: "", scopes: ["read"] },
      { name: "k", scopes: [] },
      { name: "k", scopes: ["admin"] },
      { name: "k", scopes: ["read"], expiresAt: "2001-01-01T00:00:00Z" },
      { name: "k", scopes: ["read"], extra: true },
    ]) {
      const response = await call(keys.POST, { method: "POST", body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.json.error.code).toBe("unprocessable");
    }
    expect(await use().unbound.db.select().from(apiKeys).where(eq(apiKeys.userId, owner))).toHaveLength(0);
  });

  it("refuses to issue, list or revoke keys with a key of any scope, and hides other users' keys (404)", async () => {
    const { id, key } = await issue(["read", "write"]);
    const issued = await call(keys.POST, {
      method: "POST",
      body: { name: "k", scopes: ["read"] },
      headers: bearer(key),
    });
    expect(issued.status).toBe(403);
    for (const scopes of [["read"], ["write"], ["read", "write"]] as Scope[][]) {
      const listedByKey = await call(keys.GET, { headers: bearer((await issue(scopes)).key) });
      expect(listedByKey.status, scopes.join("+")).toBe(403);
      expect(listedByKey.json.error.code).toBe("forbidden");
    }
    const revokedByKey = await call(keyItem.DELETE, { method: "DELETE", params: { id }, headers: bearer(key) });
    expect(revokedByKey.status).toBe(403);

    routeHarness.principal = principalFor(await createUser(use()));
    expect((await call(keyItem.DELETE, { method: "DELETE", params: { id } })).status).toBe(404);
    expect((await call(keyItem.DELETE, { method: "DELETE", params: { id: "not-a-uuid" } })).status).toBe(404);

    routeHarness.principal = principalFor(owner);
    const revoked = await call(keyItem.DELETE, { method: "DELETE", params: { id } });
    expect(revoked.status).toBe(200);
    expect(revoked.json.key.revokedAt).toEqual(expect.any(String));
  });

  it("answers 401 on every endpoint without credentials or with a malformed, unknown, revoked or expired key", async () => {
    const { id: revokedId, key: revokedKey } = await issue(["read", "write"]);
    routeHarness.principal = principalFor(owner);
    await call(keyItem.DELETE, { method: "DELETE", params: { id: revokedId } });
    routeHarness.principal = null;
    const { id: expiredId, key: expiredKey } = await issue(["read", "write"]);
    await use()
      .unbound.db.update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(apiKeys.id, expiredId));

    const cases: [string, Record<string, string>, RegExp][] = [
      ["missing", {}, /sign in/i],
      ["malformed", bearer("not-a-key"), /malformed/],
      ["empty bearer", { authorization: "Bearer " }, /malformed/],
      ["basic scheme", { authorization: "Basic abc" }, /malformed/],
      ["unknown", bearer(`ml_${"A".repeat(43)}`), /not recognised/],
      ["revoked", bearer(revokedKey), /revoked/],
      ["expired", bearer(expiredKey), /expired/],
    ];
    for (const endpoint of endpoints(memoryId)) {
      for (const [label, headers, message] of cases) {
        const response = await endpoint.run(headers);
        expect(response.status, `${endpoint.name} ${label}`).toBe(401);
        expect(response.json.error).toMatchObject({ code: "unauthorized", message: expect.stringMatching(message) });
      }
    }
  });

  it("a key with a valid cookie still fails when the key is bad", async () => {
    routeHarness.principal = principalFor(owner);
    const response = await call(collection.GET, { headers: bearer("ml_bad") });
    expect(response.status).toBe(401);
  });

  it("lets a read-only key read and answers 403 to its writes, writing nothing", async () => {
    const { key } = await issue(["read"]);
    for (const endpoint of endpoints(memoryId)) {
      const response = await endpoint.run(bearer(key));
      if (endpoint.write) {
        expect(response.status, endpoint.name).toBe(403);
        expect(response.json.error.code).toBe("forbidden");
      } else {
        expect(response.status, endpoint.name).toBe(200);
      }
    }
    routeHarness.principal = principalFor(owner);
    const after = await call(item.GET, { params: { id: memoryId } });
    expect(after.json.memory).toMatchObject({ version: 1, status: "active" });
    const listed = await call(collection.GET);
    expect(listed.json.memories).toHaveLength(1);
  });

  it("a write-only key cannot read", async () => {
    const { key } = await issue(["write"]);
    const response = await call(collection.GET, { headers: bearer(key) });
    expect(response.status).toBe(403);
  });

  it("acts inside the owner's root as the key: writes carry api provenance and the key id", async () => {
    const { id, key } = await issue(["read", "write"]);
    const who = await call(me.GET, { headers: bearer(key) });
    expect(who.json).toEqual({ userId: owner, role: "user", root: ["users", owner] });

    for (const endpoint of endpoints(memoryId)) {
      const response = await endpoint.run(bearer(key));
      expect(response.status, endpoint.name).toBeLessThan(300);
    }
    const created = await call(collection.POST, {
      method: "POST",
      body: { content: "written by an agent", namespace: ["agent"] },
      headers: bearer(key),
    });
    expect(created.json.memory).toMatchObject({
      namespace: ["agent"],
      actor: { type: "api", id },
      source: { type: "api" },
    });

    const stranger = await createUser(use());
    routeHarness.principal = principalFor(stranger);
    const { key: strangerKey } = await (async () => {
      const response = await call(keys.POST, { method: "POST", body: { name: "s", scopes: ["read", "write"] } });
      routeHarness.principal = null;
      return response.json as { key: string };
    })();
    const foreign = await call(item.GET, { params: { id: memoryId }, headers: bearer(strangerKey) });
    expect(foreign.status).toBe(404);
    const foreignList = await call(collection.GET, { headers: bearer(strangerKey) });
    expect(foreignList.json.memories).toEqual([]);
  });

  it("stamps last use and audits key use at most once a minute", async () => {
    const { id, key } = await issue(["read"]);
    await call(collection.GET, { headers: bearer(key) });
    await call(collection.GET, { headers: bearer(key) });
    const [row] = await use().unbound.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
    const audits = await use()
      .unbound.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, owner), eq(auditLog.actorId, id)));
    expect(audits).toEqual([
      expect.objectContaining({ actorType: "api_key", action: "api_key.use", target: "GET /api/v1/memories" }),
    ]);
  });

  it("rate-limits per key with 429 and Retry-After, leaving other keys alone", async () => {
    setEnv({ API_RATE_LIMIT_PER_MINUTE: "3" });
    const { key } = await issue(["read"]);
    const { key: other } = await issue(["read"]);
    for (let i = 0; i < 3; i++) expect((await call(collection.GET, { headers: bearer(key) })).status).toBe(200);
    const limited = await call(collection.GET, { headers: bearer(key) });
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await call(collection.GET, { headers: bearer(other) })).status).toBe(200);
  });

  it("keeps cookie sessions working", async () => {
    routeHarness.principal = principalFor(owner);
    expect((await call(collection.GET)).status).toBe(200);
    expect((await call(me.GET)).json.userId).toBe(owner);
  });
});

import "../support/route-mocks";
import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { bearer, call, principalFor } from "../api-keys/support";
import { bindingFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { routeHarness } from "../support/route-harness";

const collection = await import("@/app/api/v1/webhooks/route");
const item = await import("@/app/api/v1/webhooks/[id]/route");
const deliveries = await import("@/app/api/v1/webhooks/[id]/deliveries/route");
const redeliverRoute = await import("@/app/api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver/route");
const memories = await import("@/app/api/v1/memories/route");
const shapes = await import("@/lib/api/webhook-requests");

const create = (body: unknown, headers: Record<string, string> = {}) =>
  call(collection.POST, { method: "POST", path: "/api/v1/webhooks", body, headers });

describeEachDatabase("REST /api/v1/webhooks", (use) => {
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    alice = await createUser(use());
    bob = await createUser(use());
  });
  beforeEach(() => {
    routeHarness.database = use();
    routeHarness.principal = principalFor(alice);
    routeHarness.webhookJobs.length = 0;
  });
  afterEach(() => {
    restoreEnv();
  });

  it("creates an endpoint with a secret shown once, lists it without, and logs deliveries of REST writes", async () => {
    const created = await create({ url: "https://hooks.example.com/in", events: ["memory.created"] });
    expect(created.status).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    shapes.createdWebhookResponse.parse(created.json);
    expect(created.json.webhook).toMatchObject({ url: "https://hooks.example.com/in", enabled: true });
    const listed = await call(collection.GET, { path: "/api/v1/webhooks" });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.json)).not.toContain(created.json.secret);
    shapes.webhookListResponse.parse(listed.json);
    expect(listed.json.webhooks.map((webhook: { id: string }) => webhook.id)).toContain(created.json.webhook.id);

    const written = await call(memories.POST, { method: "POST", body: { content: "Reads on the train" } });
    expect(written.status).toBe(201);
    // Handed to the queue once the write committed: one job, for this endpoint's delivery.
    expect(routeHarness.webhookJobs).toHaveLength(1);
    const log = await call(deliveries.GET, {
      path: `/api/v1/webhooks/${created.json.webhook.id}/deliveries`,
      params: { id: created.json.webhook.id },
    });
    expect(log.status).toBe(200);
    expect(log.json.deliveries).toHaveLength(1);
    shapes.deliveryListResponse.parse(log.json);
    expect(log.json.deliveries[0]).toMatchObject({
      id: routeHarness.webhookJobs[0]?.deliveryId,
      eventType: "memory.created",
      status: "pending",
      attempts: 0,
    });
    const early = await call(redeliverRoute.POST, {
      method: "POST",
      params: { id: created.json.webhook.id, deliveryId: log.json.deliveries[0].id },
    });
    expect(early.status).toBe(409);
  });

  it.each([
    "https://127.0.0.1/hook",
    "https://10.0.0.8/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://localhost:3000/hook",
    "https://169.254.169.254/latest/meta-data/",
    "http://hooks.example.com/in",
  ])("refuses %s with 422 unless WEBHOOK_ALLOW_PRIVATE=true", async (url) => {
    const refused = await create({ url, events: ["memory.created"] });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe("unprocessable");
    expect(refused.json.error.details[0].path).toEqual(["url"]);
  });

  it("takes http and loopback targets where WEBHOOK_ALLOW_PRIVATE=true (tests, local setups)", async () => {
    setEnv({ WEBHOOK_ALLOW_PRIVATE: "true" });
    const created = await create({ url: "http://127.0.0.1:9/hook", events: ["memory.deleted"] });
    expect(created.status).toBe(201);
  });

  it.each([
    [{ url: "https://hooks.example.com/in", events: ["memory.exploded"] }, /Unknown event type "memory.exploded"/],
    [{ url: "https://hooks.example.com/in", events: [] }, /at least one event type/],
    [{ url: "https://hooks.example.com/in", events: ["memory.created", "memory.created"] }, /each event type once/],
    [{ url: "https://hooks.example.com/in" }, /events/],
    [{ url: 42, events: ["memory.created"] }, /url/],
    [{ url: `https://hooks.example.com/${"a".repeat(2_030)}`, events: ["memory.created"] }, /within 2,048 characters/],
    [{ url: "ftp://hooks.example.com/in", events: ["memory.created"] }, /https/],
    [{ url: "https://hooks.example.com/in", events: ["memory.created"], secret: "mine" }, /secret/],
  ])("refuses bad input %j with 422", async (body, message) => {
    const refused = await create(body);
    expect(refused.status).toBe(422);
    expect(`${refused.json.error.message} ${JSON.stringify(refused.json.error.details)}`).toMatch(message);
  });

  it("answers another user's endpoint id exactly like an unknown one (404)", async () => {
    const created = await create({ url: "https://hooks.example.com/a", events: ["memory.created"] });
    const id = created.json.webhook.id as string;
    routeHarness.principal = principalFor(bob);
    for (const target of [id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const params = { id: target };
      const answers = [
        await call(item.GET, { params }),
        await call(item.PATCH, { method: "PATCH", params, body: { enabled: false } }),
        await call(item.DELETE, { method: "DELETE", params }),
        await call(deliveries.GET, { params }),
        await call(redeliverRoute.POST, {
          method: "POST",
          params: { id: target, deliveryId: "00000000-0000-4000-8000-000000000000" },
        }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
      for (const answer of answers) expect(answer.json.error.message).toMatch(/No such webhook/);
    }
    routeHarness.principal = principalFor(alice);
    expect((await call(item.GET, { params: { id } })).json.webhook.enabled).toBe(true);
  });

  it("needs read and write on a key to add or delete an endpoint, read to list", async () => {
    const readOnly = (await createApiKey(bindingFor(use(), alice), { name: "r", scopes: ["read"] })).key;
    const both = (await createApiKey(bindingFor(use(), alice), { name: "rw", scopes: ["read", "write"] })).key;
    routeHarness.principal = null;
    const body = { url: "https://hooks.example.com/k", events: ["extraction.run.completed"] };
    expect((await create(body, bearer(readOnly))).status).toBe(403);
    expect((await call(collection.GET, { headers: bearer(readOnly) })).status).toBe(200);
    const created = await create(body, bearer(both));
    expect(created.status).toBe(201);
    const params = { id: created.json.webhook.id };
    expect((await call(item.DELETE, { method: "DELETE", params, headers: bearer(readOnly) })).status).toBe(403);
    expect((await call(item.DELETE, { method: "DELETE", params, headers: bearer(both) })).status).toBe(200);
    expect((await call(item.GET, { params, headers: bearer(both) })).status).toBe(404);
  });

  it("disables and enables an endpoint by hand", async () => {
    const created = await create({ url: "https://hooks.example.com/t", events: ["memory.created"] });
    const params = { id: created.json.webhook.id };
    const off = await call(item.PATCH, { method: "PATCH", params, body: { enabled: false } });
    expect(off.json.webhook).toMatchObject({ enabled: false, disabledReason: "Disabled by hand." });
    const bad = await call(item.PATCH, { method: "PATCH", params, body: { enabled: "yes" } });
    expect(bad.status).toBe(422);
    const on = await call(item.PATCH, { method: "PATCH", params, body: { enabled: true } });
    expect(on.json.webhook).toMatchObject({ enabled: true, disabledReason: null });
  });
});

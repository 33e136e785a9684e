import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { type MemoryContext, withUnit } from "@/lib/memory/core";
import {
  createMemories,
  createMemory,
  deleteMemory,
  purgeMemory,
  restoreMemory,
  updateMemory,
} from "@/lib/memory/store";
import {
  attemptDelivery,
  createWebhook,
  type DeliveryConfig,
  getWebhook,
  listDeliveries,
  overdueDeliveries,
  redeliver,
  setWebhookEnabled,
  WEBHOOK_EVENT_TYPES,
} from "@/lib/memory/webhooks";
import type { WebhookEventType } from "@/lib/memory/webhooks/events";
import { JobQueue, WEBHOOK_SLOTS, WEBHOOK_SLOTS_PER_USER } from "@/lib/server/queue";
import { contextFor, createUser, dumpAllRows } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { type Receiver, type Reply, startReceiver, until } from "./receiver";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describeEachDatabase("webhook deliveries through the queue", (use) => {
  let queue: JobQueue;
  // The clock of the attempt being recorded: a retry's wait is exactly its start minus that moment.
  let recordedAt = new Date();
  const scheduled: Array<{ deliveryId: string; attempt: number; delayMs: number }> = [];
  const config: DeliveryConfig = {
    policy: { allowPrivate: true },
    // Long enough that a loaded machine's local round trip never times out where a test expects an answer.
    timeoutMs: 1_500,
    maxAttempts: 3,
    baseDelayMs: 40,
    backoffFactor: 2,
    maxDelayMs: 1_000,
    disableAfterFailures: 2,
    clock: () => {
      recordedAt = new Date();
      return recordedAt;
    },
  };

  beforeAll(async () => {
    queue = await JobQueue.open(use(), { pollingIntervalSeconds: 0.5 });
    await queue.workWebhookDeliveries(async (job) => {
      await attemptDelivery(use(), job, config, async (next, startAfter) => {
        scheduled.push({ deliveryId: next.deliveryId, attempt: next.attempt, delayMs: +startAfter - +recordedAt });
        await queue.sendWebhookDeliveries([next], startAfter);
      });
    });
  });
  afterAll(async () => {
    await queue.stop(5_000);
  });

  async function subscriber(events: WebhookEventType[] = [...WEBHOOK_EVENT_TYPES]) {
    const userId = await createUser(use());
    const ctx: MemoryContext = contextFor(use(), userId, {
      scheduleWebhookDeliveries: (deliveries) => queue.sendWebhookDeliveries(deliveries),
    });
    const receiver: Receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { webhook, secret } = await createWebhook(ctx, { url: receiver.url(), events }, { allowPrivate: true });
    const deliveries = async () => (await listDeliveries(ctx, webhook.id)).deliveries;
    const settled = async () => (await deliveries()).every((d) => d.status === "succeeded" || d.status === "failed");
    return { ctx, receiver, webhook, secret, deliveries, settled };
  }

  it("signs every delivery per Standard Webhooks: the reference library verifies it, with the same id as the log", async () => {
    const { ctx, receiver, secret, deliveries } = await subscriber();
    const memory = await createMemory(ctx, { content: "Plays the cello on Sundays" });
    await until(async () => (await deliveries())[0]?.status === "succeeded", "the delivery");
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const headers = request!.headers as Record<string, string>;
    const payload = new Webhook(secret).verify(request!.body, headers) as {
      type: string;
      data: { id: string; text: string };
    };
    expect(payload.type).toBe("memory.created");
    expect(payload.data).toMatchObject({ id: memory.id, text: "Plays the cello on Sundays" });
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(() =>
      new Webhook(`whsec_${Buffer.from("another secret").toString("base64")}`).verify(request!.body, headers),
    ).toThrow();
    const [logged] = await deliveries();
    expect(logged).toMatchObject({ id: headers["webhook-id"], attempts: 1, lastStatusCode: 200, lastError: null });
    expect(logged?.deliveredAt).not.toBeNull();
  });

  it("sends one event per change from the store, only of the types the endpoint subscribed to", async () => {
    const { ctx, receiver, secret, settled } = await subscriber([
      "memory.updated",
      "memory.deleted",
      "memory.restored",
    ]);
    const memory = await createMemory(ctx, { content: "Drinks oolong" });
    await updateMemory(ctx, memory.id, { content: "Drinks sencha" });
    await deleteMemory(ctx, memory.id);
    await restoreMemory(ctx, memory.id);
    await until(async () => receiver.received.length === 3 && (await settled()), "three deliveries");
    const types = receiver.received.map(
      (request) =>
        (new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { type: string }).type,
    );
    expect(types.sort()).toEqual(["memory.deleted", "memory.restored", "memory.updated"]);
  });

  it("retries after 500s with a growing wait, under the same webhook-id", async () => {
    const { ctx, receiver, secret, deliveries } = await subscriber(["memory.created"]);
    receiver.reply({ status: 500 }, { status: 503 });
    await createMemory(ctx, { content: "Lives near the harbour" });
    await until(async () => (await deliveries())[0]?.status === "succeeded", "the third attempt");
    expect(receiver.received).toHaveLength(3);
    const ids = new Set(receiver.received.map((request) => request.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    for (const request of receiver.received) {
      expect(() => new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    }
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ attempts: 3, lastStatusCode: 200, lastError: null });
    expect(scheduled.filter((entry) => entry.deliveryId === delivery?.id)).toEqual([
      { deliveryId: delivery?.id, attempt: 2, delayMs: 40 },
      { deliveryId: delivery?.id, attempt: 3, delayMs: 80 },
    ]);
  });

  it("never follows a redirect: a 3xx is a failed attempt", async () => {
    const { ctx, receiver, deliveries } = await subscriber(["memory.created"]);
    receiver.otherwise({ status: 302, headers: { location: receiver.url("/elsewhere") } });
    await createMemory(ctx, { content: "Runs on Tuesdays" });
    await until(async () => (await deliveries())[0]?.status === "failed", "the last attempt");
    expect(receiver.received.map((request) => request.path)).toEqual(["/hook", "/hook", "/hook"]);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ attempts: 3, lastStatusCode: 302 });
    expect(delivery?.lastError).toMatch(/redirect \(HTTP 302\) not followed/);
  });

  it("gives up an attempt at the timeout even if a 200 would follow, and disables an endpoint that keeps timing out", async () => {
    const { ctx, receiver, webhook, deliveries } = await subscriber(["memory.created"]);
    // Answers, but only after the attempt's timeout: a success that held a delivery slot the whole time.
    receiver.otherwise({ status: 200, afterMs: config.timeoutMs * 3 });
    await createMemory(ctx, { content: "Keeps bees" });
    await until(async () => !(await getWebhook(ctx, webhook.id)).enabled, "the endpoint to be disabled");
    // Each timed-out attempt counts: disabled after two (disableAfterFailures), before the delivery's third attempt.
    expect(receiver.received).toHaveLength(2);
    const disabled = await getWebhook(ctx, webhook.id);
    expect(disabled.consecutiveFailures).toBe(2);
    expect(disabled.disabledReason).toBe(
      `Disabled after 2 failures in a row: the last attempt timed out (no response within ${config.timeoutMs} ms).`,
    );
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({
      status: "failed",
      attempts: 2,
      lastStatusCode: null,
      lastError: `no response within ${config.timeoutMs} ms`,
    });
  });

  it("disables an endpoint after deliveries fail in a row, says why, and can be enabled and redelivered", async () => {
    const { ctx, receiver, webhook, deliveries } = await subscriber(["memory.created"]);
    receiver.otherwise({ status: 500 });
    await createMemory(ctx, { content: "Collects stamps" });
    await createMemory(ctx, { content: "Speaks Basque" });
    await until(async () => !(await getWebhook(ctx, webhook.id)).enabled, "the endpoint to be disabled");
    const disabled = await getWebhook(ctx, webhook.id);
    expect(disabled.disabledReason).toBe("Disabled after 2 failures in a row (last: HTTP 500).");
    expect((await deliveries()).map((d) => d.status)).toEqual(["failed", "failed"]);

    await createMemory(ctx, { content: "Sails a dinghy" });
    expect(await deliveries()).toHaveLength(2);
    await expect(
      redeliver(ctx, webhook.id, (await deliveries())[0]!.id, (jobs) => queue.sendWebhookDeliveries(jobs)),
    ).rejects.toMatchObject({ code: "conflict" });

    expect(await setWebhookEnabled(ctx, webhook.id, true)).toMatchObject({ enabled: true, consecutiveFailures: 0 });
    receiver.otherwise({ status: 204 });
    const [latest] = await deliveries();
    const queued = await redeliver(ctx, webhook.id, latest!.id, (jobs) => queue.sendWebhookDeliveries(jobs));
    expect(queued.status).toBe("pending");
    await until(async () => (await deliveries())[0]?.status === "succeeded", "the redelivery");
    expect((await deliveries())[0]).toMatchObject({ attempts: 4, lastStatusCode: 204 });
  });

  it("a purge sends ids only and leaves no copy of the text in any delivery or job", async () => {
    const { ctx, receiver, secret, deliveries, settled } = await subscriber();
    const memory = await createMemory(ctx, { content: "My locker code is ultraviolet-4417" });
    await until(async () => receiver.received.length === 1 && (await settled()), "the created event");
    await purgeMemory(ctx, memory.id);
    await until(async () => receiver.received.length === 2 && (await settled()), "the purged event");
    const purge = receiver.received
      .map((request) => new Webhook(secret).verify(request.body, request.headers as Record<string, string>))
      .find((payload) => (payload as { type: string }).type === "memory.purged") as { data: unknown };
    expect(purge.data).toEqual({ id: memory.id, version: 2, purged: true });
    expect(JSON.stringify(purge)).not.toMatch(/ultraviolet/);
    for (const delivery of await deliveries()) expect(JSON.stringify(delivery.payload)).not.toMatch(/ultraviolet/);
    expect(await dumpAllRows(use(), ["public", "pgboss"])).not.toMatch(/ultraviolet/);
  });

  it("records an event only when its write commits, and queues it only after the commit", async () => {
    const { ctx, webhook, deliveries } = await subscriber(["memory.created"]);
    await expect(
      withUnit(ctx, async (bound) => {
        await createMemory(bound, { content: "Never written" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await deliveries()).toEqual([]);

    // The hook reads the committed rows from another connection's view: it runs after the commit, not inside it.
    const seen: Array<{ committed: string[]; queued: string[] }> = [];
    const watching: MemoryContext = {
      ...ctx,
      scheduleWebhookDeliveries: async (jobs) => {
        const rows = await use().unbound.rows<{ id: string }>(
          sql`select id from webhook_deliveries where endpoint_id = ${webhook.id}::uuid`,
        );
        seen.push({ committed: rows.map((row) => row.id), queued: jobs.map((job) => job.deliveryId) });
      },
    };
    await createMemory(watching, { content: "Written once" });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.committed).toEqual(seen[0]?.queued);
    expect(seen[0]?.queued).toHaveLength(1);
  });
});

describeEachDatabase("webhook delivery slots shared between users", (use) => {
  it("one user's backlog holds at most its share of the slots: another user's delivery goes out while it waits", async () => {
    const queue = await JobQueue.open(use(), { pollingIntervalSeconds: 0.5 });
    cleanups.push(() => queue.stop(5_000));
    // Long enough that none of the slow receiver's attempts ends while the test looks.
    const config: DeliveryConfig = { ...DEFAULTS_FOR_REPLAY, policy: { allowPrivate: true }, timeoutMs: 120_000 };
    await queue.workWebhookDeliveries(async (job) => {
      await attemptDelivery(use(), job, config, async () => {});
    });
    const subscribe = async (fallback: Reply) => {
      const ctx = contextFor(use(), await createUser(use()), {
        scheduleWebhookDeliveries: (deliveries) => queue.sendWebhookDeliveries(deliveries),
      });
      const receiver = await startReceiver(fallback);
      cleanups.push(receiver.close);
      await createWebhook(ctx, { url: receiver.url(), events: ["memory.created"] }, { allowPrivate: true });
      return { ctx, receiver };
    };
    const busy = await subscribe("stall");
    await createMemories(
      busy.ctx,
      Array.from({ length: 200 }, (_, n) => ({ content: `Backlog item ${n}` })),
    );
    await until(() => busy.receiver.received.length >= WEBHOOK_SLOTS_PER_USER, "the backlog to take its slots");

    const other = await subscribe({ status: 200 });
    await createMemory(other.ctx, { content: "Arrives while the backlog waits" });
    await until(() => other.receiver.received.length === 1, "the other user's delivery", 15_000);
    // Every request the busy receiver got is still unanswered: its backlog took exactly its share, no more.
    expect(busy.receiver.received).toHaveLength(WEBHOOK_SLOTS_PER_USER);
  });

  it("users with backlogs take turns: a new user's first delivery waits behind no one's backlog", async () => {
    const queue = await JobQueue.open(use(), { pollingIntervalSeconds: 0.5 });
    cleanups.push(() => queue.stop(5_000));
    const config: DeliveryConfig = { ...DEFAULTS_FOR_REPLAY, policy: { allowPrivate: true }, timeoutMs: 30_000 };
    const subscribe = async (reply: Reply) => {
      const ctx = contextFor(use(), await createUser(use()), {
        scheduleWebhookDeliveries: (deliveries) => queue.sendWebhookDeliveries(deliveries),
      });
      const receiver = await startReceiver(reply);
      cleanups.push(receiver.close);
      await createWebhook(ctx, { url: receiver.url(), events: ["memory.created"] }, { allowPrivate: true });
      return { ctx, receiver };
    };
    // Enough users with slow receivers to fill every slot, each with a backlog, recorded before any worker runs.
    const busy = await Promise.all(
      Array.from({ length: WEBHOOK_SLOTS / WEBHOOK_SLOTS_PER_USER }, () => subscribe({ status: 200, afterMs: 150 })),
    );
    for (const { ctx } of busy) {
      await createMemories(
        ctx,
        Array.from({ length: 25 }, (_, n) => ({ content: `Backlog item ${n}` })),
      );
    }
    const late = await subscribe({ status: 200 });
    await createMemory(late.ctx, { content: "Recorded after every backlog" });
    await queue.workWebhookDeliveries(async (job) => {
      await attemptDelivery(use(), job, config, async () => {});
    });
    await until(() => late.receiver.received.length === 1, "the late user's delivery", 20_000);
    // Served by place in its user's backlog, the late delivery (place 0) goes out in the first round, after at most
    // each busy user's first two; served in the order recorded, it would wait for all 100.
    const servedBefore = busy.reduce((sum, { receiver }) => sum + receiver.received.length, 0);
    expect(servedBefore).toBeLessThanOrEqual(2 * WEBHOOK_SLOTS);
  });
});

describeEachDatabase("webhook targets at delivery time", (use) => {
  it("resolves the name again before each attempt and refuses a non-public answer (DNS rebinding)", async () => {
    const userId = await createUser(use());
    // No queue wiring: the delivery waits for the sweep, which finds it overdue.
    const ctx = contextFor(use(), userId);
    const { webhook } = await createWebhook(
      ctx,
      { url: "https://hooks.example.com/in", events: ["memory.created"] },
      { allowPrivate: false },
    );
    await createMemory(ctx, { content: "Grows tomatoes" });
    const due = (await overdueDeliveries(use(), new Date(), 0)).filter((job) => job.userId === userId);
    expect(due).toHaveLength(1);
    const retries: number[] = [];
    const outcome = await attemptDelivery(
      use(),
      due[0]!,
      {
        policy: { allowPrivate: false },
        timeoutMs: 1_000,
        maxAttempts: 2,
        baseDelayMs: 10,
        backoffFactor: 2,
        maxDelayMs: 100,
        disableAfterFailures: 5,
        clock: () => new Date(),
        lookup: async () => [{ address: "127.0.0.1", family: 4 }],
      },
      async (next) => {
        retries.push(next.attempt);
      },
    );
    expect(outcome).toBe("retrying");
    expect(retries).toEqual([2]);
    const [delivery] = (await listDeliveries(ctx, webhook.id)).deliveries;
    expect(delivery?.lastError).toMatch(/resolves to a non-public address/);
    // The same job again is not the delivery's next attempt: nothing is sent twice.
    expect(await attemptDelivery(use(), due[0]!, { ...DEFAULTS_FOR_REPLAY }, async () => {})).toBe("skipped");
  });
});

describeEachDatabase("webhook deliveries nobody is working", (use) => {
  it("the sweep finds an overdue attempt, and one left sending by a dead worker, which it retries as the same attempt", async () => {
    const userId = await createUser(use());
    const ctx = contextFor(use(), userId);
    const { webhook } = await createWebhook(
      ctx,
      { url: "https://hooks.example.com/in", events: ["memory.created"] },
      { allowPrivate: false },
    );
    await createMemory(ctx, { content: "Plays chess" });
    await createMemory(ctx, { content: "Bakes bread" });
    const [stuck, waiting] = (await listDeliveries(ctx, webhook.id)).deliveries;
    await use().unbound.rows(
      sql`update webhook_deliveries set status = 'sending', attempts = 2, last_attempt_at = now() - interval '2 hours'
          where id = ${stuck!.id}::uuid`,
    );
    const due = await overdueDeliveries(use(), new Date(), 0);
    expect(due.sort((a, b) => a.attempt - b.attempt)).toEqual([
      { userId, deliveryId: waiting!.id, attempt: 1 },
      { userId, deliveryId: stuck!.id, attempt: 2 },
    ]);
    const refused = { ...DEFAULTS_FOR_REPLAY, lookup: async () => [{ address: "10.0.0.9", family: 4 }] };
    expect(await attemptDelivery(use(), due[1]!, refused, async () => {})).toBe("failed");
    const after = (await listDeliveries(ctx, webhook.id)).deliveries.find((d) => d.id === stuck!.id);
    expect(after).toMatchObject({ status: "failed", attempts: 2 });
  });
});

const DEFAULTS_FOR_REPLAY: DeliveryConfig = {
  policy: { allowPrivate: false },
  timeoutMs: 100,
  maxAttempts: 1,
  baseDelayMs: 10,
  backoffFactor: 2,
  maxDelayMs: 100,
  disableAfterFailures: 5,
  clock: () => new Date(),
};

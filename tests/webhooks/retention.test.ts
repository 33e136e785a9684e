import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { createWebhook, pruneWebhookDeliveries } from "@/lib/memory/webhooks";
import { JobQueue, WEBHOOK_PRUNE_QUEUE } from "@/lib/server/queue";
import { startWebhookWorker } from "@/lib/server/webhooks";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { until } from "./receiver";

const NOW = new Date("2026-06-30T12:00:00.000Z");
const daysAgo = (days: number, now = NOW) => new Date(now.getTime() - days * 86_400_000).toISOString();

describeEachDatabase("webhook delivery retention", (use) => {
  async function endpointOf(userId: string) {
    const { webhook } = await createWebhook(
      contextFor(use(), userId),
      { url: "https://hooks.example.com/in", events: ["memory.created"] },
      { allowPrivate: false },
    );
    return webhook.id;
  }

  async function delivery(
    userId: string,
    endpointId: string,
    row: { status: string; createdDaysAgo: number; lastAttemptDaysAgo?: number },
    now = NOW,
  ) {
    const lastAttempt = row.lastAttemptDaysAgo === undefined ? null : daysAgo(row.lastAttemptDaysAgo, now);
    const [inserted] = await use().unbound.rows<{ id: string }>(sql`
      insert into webhook_deliveries (user_id, endpoint_id, event_type, payload, status, created_at, last_attempt_at)
      values (${userId}::uuid, ${endpointId}::uuid, 'memory.created', '{}'::jsonb, ${row.status},
              ${daysAgo(row.createdDaysAgo, now)}::timestamptz, ${lastAttempt}::timestamptz)
      returning id::text as id`);
    return (inserted as { id: string }).id;
  }

  const remaining = async (userId: string) =>
    (
      await use().unbound.rows<{ id: string }>(
        sql`select id::text as id from webhook_deliveries where user_id = ${userId}::uuid`,
      )
    )
      .map((row) => row.id)
      .sort();

  it("deletes finished deliveries older than the retention, user by user in batches, and keeps the rest", async () => {
    const first = await createUser(use());
    const second = await createUser(use());
    const firstEndpoint = await endpointOf(first);
    const secondEndpoint = await endpointOf(second);
    await delivery(first, firstEndpoint, { status: "succeeded", createdDaysAgo: 40, lastAttemptDaysAgo: 40 });
    await delivery(first, firstEndpoint, { status: "failed", createdDaysAgo: 45, lastAttemptDaysAgo: 31 });
    const kept = [
      // Still being attempted, however old.
      await delivery(first, firstEndpoint, { status: "pending", createdDaysAgo: 90 }),
      await delivery(first, firstEndpoint, { status: "sending", createdDaysAgo: 90, lastAttemptDaysAgo: 60 }),
      // Finished within the retention.
      await delivery(first, firstEndpoint, { status: "succeeded", createdDaysAgo: 29, lastAttemptDaysAgo: 29 }),
      // Created long ago, but redelivered by hand lately.
      await delivery(first, firstEndpoint, { status: "succeeded", createdDaysAgo: 60, lastAttemptDaysAgo: 2 }),
    ].sort();
    for (let n = 0; n < 5; n++) {
      await delivery(second, secondEndpoint, { status: "failed", createdDaysAgo: 35, lastAttemptDaysAgo: 35 });
    }

    const result = await pruneWebhookDeliveries(use(), { now: NOW, retentionDays: 30, batchSize: 2, usersPerPage: 1 });

    expect(await remaining(first)).toEqual(kept);
    expect(await remaining(second)).toEqual([]);
    expect(result.deleted).toBe(7);
  });

  it("runs daily as a pg-boss schedule of the webhook worker, with the configured retention", async () => {
    setEnv({ WEBHOOK_DELIVERY_RETENTION_DAYS: "10" });
    const queue = await JobQueue.open(use(), { pollingIntervalSeconds: 0.5 });
    const stopSweep = await startWebhookWorker(use(), queue);
    try {
      const schedules = await queue.boss.getSchedules(WEBHOOK_PRUNE_QUEUE);
      expect(schedules.map((schedule) => schedule.cron)).toEqual(["43 3 * * *"]);
      const userId = await createUser(use());
      const endpointId = await endpointOf(userId);
      const now = new Date();
      await delivery(userId, endpointId, { status: "failed", createdDaysAgo: 11, lastAttemptDaysAgo: 11 }, now);
      const recent = await delivery(
        userId,
        endpointId,
        { status: "failed", createdDaysAgo: 9, lastAttemptDaysAgo: 9 },
        now,
      );
      // The tick the schedule would send.
      await queue.boss.send(WEBHOOK_PRUNE_QUEUE, {});
      await until(async () => (await remaining(userId)).length === 1, "the prune job");
      expect(await remaining(userId)).toEqual([recent]);
    } finally {
      stopSweep();
      await queue.stop(5_000);
      restoreEnv();
    }
  });
});

describe("WEBHOOK_DELIVERY_RETENTION_DAYS", () => {
  it("is 30 days unless set to a whole number of days, and refuses anything else", () => {
    const retention = (value?: string) =>
      parseConfig({ WEBHOOK_DELIVERY_RETENTION_DAYS: value }).WEBHOOK_DELIVERY_RETENTION_DAYS;
    expect(retention()).toBe(30);
    expect(retention(" 7 ")).toBe(7);
    for (const bad of ["0", "-3", "1.5", "a week"]) {
      expect(() => retention(bad)).toThrow(
        `WEBHOOK_DELIVERY_RETENTION_DAYS must be a whole number from 1 to 36500 (got "${bad}").`,
      );
    }
  });
});

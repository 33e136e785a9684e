import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { expireIdleGuests } from "@/lib/account/guest-expiry";
import { createApiKey } from "@/lib/auth/api-keys";
import { parseConfig } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { createMemory } from "@/lib/memory/store";
import { GUEST_EXPIRY_QUEUE, JobQueue } from "@/lib/server/queue";
import { bindingFor, contextFor } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

const NOW = new Date("2026-06-30T12:00:00.000Z");
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000);

async function userActiveAt(database: Database, guest: boolean, lastActiveAt: Date): Promise<string> {
  const [row] = await database.unbound.rows<{ id: string }>(sql`
    insert into users (name, is_guest, email, last_active_at)
    values ('someone', ${guest}, ${guest ? null : `u${Math.random()}@example.com`}, ${lastActiveAt.toISOString()}::timestamptz)
    returning id::text as id`);
  const id = (row as { id: string }).id;
  await createMemory(contextFor(database, id), { content: "A fact of theirs" });
  return id;
}

async function remaining(database: Database, ids: string[]) {
  const rows = await database.unbound.rows<{ id: string }>(sql`select id::text as id from users`);
  const memories = await database.unbound.rows<{ id: string }>(sql`select distinct user_id::text as id from memories`);
  const present = new Set(rows.map((row) => row.id));
  const withMemories = new Set(memories.map((row) => row.id));
  return ids.filter((id) => present.has(id) || withMemories.has(id));
}

describeEachDatabase("guest expiry", (use) => {
  it("deletes guests idle past the TTL with everything they had, and no active guest or registered user", async () => {
    const database = use();
    const idleGuest = await userActiveAt(database, true, daysBefore(31));
    const activeGuest = await userActiveAt(database, true, daysBefore(29));
    const idleRegistered = await userActiveAt(database, false, daysBefore(400));

    const { deleted } = await expireIdleGuests(database, { now: NOW, ttlDays: 30 });
    expect(deleted).toEqual([idleGuest]);
    expect(await remaining(database, [idleGuest, activeGuest, idleRegistered])).toEqual([activeGuest, idleRegistered]);
  });

  it("keeps an idle guest whose API key was used within the TTL: a key is activity too", async () => {
    const database = use();
    const guest = await userActiveAt(database, true, daysBefore(90));
    const { id: keyId } = await createApiKey(bindingFor(database, guest), { name: "mcp", scopes: ["read"] });
    await database.unbound.rows(
      sql`update api_keys set last_used_at = ${daysBefore(2).toISOString()}::timestamptz where id = ${keyId}`,
    );
    const { deleted } = await expireIdleGuests(database, { now: NOW, ttlDays: 30 });
    expect(deleted).not.toContain(guest);
    expect(await remaining(database, [guest])).toEqual([guest]);
  });

  it("runs as an hourly pg-boss schedule, whose ticks carry no data", async () => {
    // A tick sent by the scheduler wakes no worker: it is found by the poll.
    const queue = await JobQueue.open(use(), { pollingIntervalSeconds: 0.5 });
    try {
      let runs = 0;
      await queue.workGuestExpiry(async () => {
        runs++;
      });
      const schedules = await queue.boss.getSchedules(GUEST_EXPIRY_QUEUE);
      expect(schedules.map((schedule) => schedule.cron)).toEqual(["17 * * * *"]);
      // A tick is sent with the schedule's data, null here: every tick once failed reading it before the handler ran.
      const jobId = await queue.boss.send(GUEST_EXPIRY_QUEUE, null as unknown as object);
      // The worker fetches twice a second; a loaded machine takes longer (a limit for a hang, not a measure of speed).
      await expect
        .poll(async () => (await queue.boss.getJobById(GUEST_EXPIRY_QUEUE, jobId!))?.state, { timeout: 30_000 })
        .toBe("completed");
      // At least: the schedule's own tick may come during the test.
      expect(runs).toBeGreaterThanOrEqual(1);
    } finally {
      await queue.stop(5_000);
    }
  });
});

it("reads GUEST_TTL_DAYS: 30 days unset, a whole number of days from 1, anything else refused", () => {
  const ttl = (value?: string) => parseConfig({ GUEST_TTL_DAYS: value }).GUEST_TTL_DAYS;
  expect(ttl()).toBe(30);
  expect(ttl(" 7 ")).toBe(7);
  for (const bad of ["0", "-3", "1.5", "thirty"]) {
    expect(() => ttl(bad), bad).toThrow(/GUEST_TTL_DAYS/);
  }
});

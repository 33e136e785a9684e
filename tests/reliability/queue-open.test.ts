import { sql } from "drizzle-orm";
import { afterAll, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/client";
import { EXTRACTION_QUEUE } from "@/lib/server/queue";
import { openMigratedPglite } from "../support/databases";

const state = { failures: 1, database: undefined as Database | undefined };
vi.mock("@/lib/db", () => ({
  getDatabase: async () => {
    if (state.failures-- > 0) throw new Error("the database is restarting");
    state.database ??= await openMigratedPglite();
    return state.database;
  },
}));

const { getJobQueue } = await import("@/lib/server/jobs");

afterAll(async () => {
  await (await getJobQueue()).stop(2_000);
  await state.database?.close();
});

it("a queue that failed to open is opened again on the next use, so later exchanges are still scheduled", async () => {
  await expect(getJobQueue()).rejects.toThrow("the database is restarting");
  const queue = await getJobQueue();
  await queue.enqueue({ userId: "00000000-0000-4000-8000-000000000001", threadId: "after-outage" }, 0);
  const jobs = await state.database!.unbound.rows<{ data: unknown }>(
    sql`select data from pgboss.job where name = ${EXTRACTION_QUEUE}`,
  );
  expect(jobs).toEqual([{ data: { userId: "00000000-0000-4000-8000-000000000001", threadId: "after-outage" } }]);
  expect(await getJobQueue()).toBe(queue);
});

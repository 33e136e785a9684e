import "../support/route-mocks";
import { sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { call } from "../api-keys/support";
import { createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { setEnv } from "../support/env";
import { principalFor, routeHarness } from "../support/route-harness";

const batch = await import("@/app/api/v1/memories/batch/route");
const collection = await import("@/app/api/v1/memories/route");
const item = await import("@/app/api/v1/memories/[id]/route");
const restore = await import("@/app/api/v1/memories/[id]/restore/route");

const create = (content: string) => call(collection.POST, { method: "POST", body: { content } });
const createBatch = (contents: string[]) =>
  call(batch.POST, {
    method: "POST",
    path: "/api/v1/memories/batch",
    body: { memories: contents.map((content) => ({ content })) },
  });

function expectQuotaRefusal(response: { status: number; json: { error?: { code: string; message: string } } }) {
  expect(response.status).toBe(403);
  expect(response.json.error?.code).toBe("quota_exceeded");
  expect(response.json.error?.message).toMatch(/^Memory quota reached: an account may hold 3 active memories/);
}

describeEachDatabase("memory quota", (use) => {
  let me: string;
  const rows = async () =>
    (await use().unbound.rows<{ n: number }>(sql`select count(*)::int as n from memories where user_id = ${me}`))[0]?.n;

  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
    setEnv({ MEMORY_QUOTA: "3", GUEST_MEMORY_QUOTA: "1" });
  });

  it("refuses a create past MEMORY_QUOTA with 403 quota_exceeded and writes nothing; edits still pass", async () => {
    const [first] = await Promise.all([create("one"), create("two"), create("three")]);
    expectQuotaRefusal(await create("four"));
    expect(await rows()).toBe(3);
    const edited = await call(item.PATCH, {
      method: "PATCH",
      path: `/api/v1/memories/${first?.json.memory.id}`,
      params: { id: first?.json.memory.id },
      body: { content: "one, edited" },
    });
    expect(edited.status).toBe(200);
  });

  it("refuses a whole batch that would pass the quota, and takes one that fits", async () => {
    await create("one");
    expectQuotaRefusal(await createBatch(["two", "three", "four"]));
    expect(await rows()).toBe(1);
    const fits = await createBatch(["two", "three"]);
    expect(fits.status).toBe(201);
    expect(await rows()).toBe(3);
  });

  it("two batches at once that fit only one at a time: one is written, the other refused whole", async () => {
    const outcomes = await Promise.all([createBatch(["a1", "a2"]), createBatch(["b1", "b2"])]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([201, 403]);
    expect(await rows()).toBe(2);
  });

  it("restoring a deleted memory counts as adding one", async () => {
    const gone = (await create("one")).json.memory.id as string;
    const params = { id: gone };
    expect((await call(item.DELETE, { method: "DELETE", path: `/api/v1/memories/${gone}`, params })).status).toBe(200);
    await createBatch(["two", "three", "four"]);
    const path = `/api/v1/memories/${gone}/restore`;
    expectQuotaRefusal(await call(restore.POST, { method: "POST", path, params }));
    const status = await use().unbound.rows<{ status: string }>(sql`select status from memories where id = ${gone}`);
    expect(status[0]?.status).toBe("deleted");
  });

  it("a guest gets GUEST_MEMORY_QUOTA", async () => {
    routeHarness.principal = { ...principalFor(me), isGuest: true };
    expect((await create("one")).status).toBe(201);
    const refused = await create("two");
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/may hold 1 active memory;/);
    expect(await rows()).toBe(1);
  });
});

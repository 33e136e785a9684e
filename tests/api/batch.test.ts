import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import type { MemoryJson } from "@/lib/memory/contract";
import { listMemories } from "@/lib/memory/store";
import { call } from "../api-keys/support";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const batch = await import("@/app/api/v1/memories/batch/route");
const collection = await import("@/app/api/v1/memories/route");
const search = await import("@/app/api/v1/memories/search/route");

interface BatchBody {
  created: MemoryJson[];
  rejected: Array<{ index: number; error: { code: string; message: string } }>;
  error?: { code: string; message: string };
}

const send = async (memories: unknown) =>
  call(batch.POST, { method: "POST", path: "/api/v1/memories/batch", body: { memories } }) as Promise<{
    status: number;
    json: BatchBody;
  }>;

describeEachDatabase("POST /api/v1/memories/batch", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
  });
  const stored = async () =>
    (await listMemories(contextFor(use(), me), { status: "all", limit: 200 })).memories.map((m) => m.text).sort();

  it("writes every valid item in one go and reports each invalid one by index with the single-create error", async () => {
    await call(collection.POST, { method: "POST", body: { content: "already here", key: "taken" } });
    const single = await call(collection.POST, { method: "POST", body: { content: "", kind: "memory" } });
    const response = await send([
      { content: "first" },
      { content: "" },
      { content: "second", key: "taken" },
      { content: "third", key: "twice" },
      { content: "fourth", key: "twice" },
      { content: "fifth", namespace: ["a.b"] },
      { content: "sixth", unknown: true },
      { kind: "profile", content: { name: "Priya" } },
    ]);
    expect(response.status).toBe(201);
    expect(response.json.created.map((memory) => memory.text)).toEqual(["first", "third", "name: Priya"]);
    expect(response.json.rejected.map((entry) => [entry.index, entry.error.code])).toEqual([
      [1, "unprocessable"],
      [2, "conflict"],
      [4, "conflict"],
      [5, "unprocessable"],
      [6, "unprocessable"],
    ]);
    expect(response.json.rejected[0]?.error.message).toBe(
      (single.json as { error: { message: string } }).error.message,
    );
    expect(await stored()).toEqual(["already here", "first", "name: Priya", "third"].sort());
  });

  it("refuses an empty batch, more than 1,000 items, and a body over 8 MB, writing nothing", async () => {
    const empty = await send([]);
    expect(empty.status).toBe(422);
    expect(empty.json.error?.message).toBe("Invalid input: memories: Send at least one memory.");
    const tooMany = await send(Array.from({ length: 1_001 }, (_, index) => ({ content: `m${index}` })));
    expect(tooMany.status).toBe(422);
    expect(tooMany.json.error?.message).toContain("at most 1000 memories");
    const huge = await send(Array.from({ length: 300 }, () => ({ content: "x".repeat(30_000) })));
    expect(huge.status).toBe(413);
    expect(await stored()).toEqual([]);
    const full = await send(Array.from({ length: 1_000 }, (_, index) => ({ content: `memory ${index}` })));
    expect(full.status).toBe(201);
    expect(full.json.created).toHaveLength(1_000);
  });
});

describeEachDatabase("POST /api/v1/memories/search modes", (use) => {
  beforeEach(async () => {
    routeHarness.database = use();
    routeHarness.principal = principalFor(await createUser(use()));
  });

  it("answers scores in [0, 1] with the lexical leg, and a clear 422 for vector mode with vectors off", async () => {
    await call(collection.POST, { method: "POST", body: { content: "Plays the cello on Sundays" } });
    const found = await call(search.POST, {
      method: "POST",
      path: "/api/v1/memories/search",
      body: { query: "cello", mode: "lexical" },
    });
    expect(found.status).toBe(200);
    const [result] = (found.json as { results: Array<{ score: number; lexical: number }> }).results;
    expect(result!.score).toBeGreaterThan(0);
    expect(result!.score).toBeLessThanOrEqual(1);
    expect(result!.lexical).toBe(result!.score);
    const refused = await call(search.POST, {
      method: "POST",
      path: "/api/v1/memories/search",
      body: { query: "cello", mode: "vector" },
    });
    expect(refused.status).toBe(422);
    expect((refused.json as { error: { message: string } }).error.message).toContain("Vector search is off");
  });
});

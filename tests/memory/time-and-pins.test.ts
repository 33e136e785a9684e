import { expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import { recallMemories } from "@/lib/chat/recall";
import { searchMemories } from "@/lib/memory/search";
import {
  createMemory,
  getMemory,
  listMemories,
  memoryHistory,
  supersedeMemory,
  updateMemory,
} from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser } from "./support";

// The stepping clock starts on 2026-01-01: "today" for every search below.
describeEachDatabase("facts in time and pins", (use) => {
  const setup = async () => contextFor(use(), await createUser(use()));
  const ids = (results: Array<{ memory: { id: string } }>) => results.map((result) => result.memory.id).sort();

  it("stores validFrom / validTo as dates and serialises them", async () => {
    const ctx = await setup();
    const memory = await createMemory(ctx, {
      content: "User works at Acme",
      validFrom: "2024-03-01",
      validTo: "2025-06-30T12:00:00+02:00",
    });
    expect(memory.validFrom?.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(memory.validTo?.toISOString()).toBe("2025-06-30T10:00:00.000Z");
    expect((await getMemory(ctx, memory.id)).validTo?.toISOString()).toBe("2025-06-30T10:00:00.000Z");
    const [version] = await memoryHistory(ctx, memory.id);
    expect(version?.validFrom?.toISOString()).toBe("2024-03-01T00:00:00.000Z");
  });

  it("refuses validTo before validFrom and dates that are no dates, on create and update (422)", async () => {
    const ctx = await setup();
    await expect(
      createMemory(ctx, { content: "x", validFrom: "2025-05-01", validTo: "2025-04-01" }),
    ).rejects.toMatchObject({ code: "unprocessable", details: [{ path: ["validTo"] }] });
    await expect(createMemory(ctx, { content: "x", validFrom: "last month" })).rejects.toMatchObject({
      code: "unprocessable",
    });
    const memory = await createMemory(ctx, { content: "User lives in Porto", validFrom: "2020-01-01" });
    await expect(updateMemory(ctx, memory.id, { validTo: "2019-12-31" })).rejects.toMatchObject({
      code: "unprocessable",
    });
    await expect(updateMemory(ctx, memory.id, { pinned: "yes" as unknown as boolean })).rejects.toMatchObject({
      code: "unprocessable",
    });
    expect((await getMemory(ctx, memory.id)).version).toBe(1);
  });

  it("asOf finds the facts that held then, superseded ones included; without it superseded facts are left out", async () => {
    const ctx = await setup();
    const porto = await createMemory(ctx, {
      content: "User lives in Porto",
      validFrom: "2019-01-01",
      validTo: "2025-11-01",
    });
    const lisbon = await createMemory(ctx, { content: "User lives in Lisbon", validFrom: "2025-11-01" });
    const undated = await createMemory(ctx, { content: "User lives somewhere sunny" });

    expect(ids(await searchMemories(ctx, { query: "where does the user live" }))).toEqual(
      [lisbon.id, undated.id].sort(),
    );
    expect(ids(await searchMemories(ctx, { query: "where does the user live", asOf: "2023-05-01" }))).toEqual(
      [porto.id, undated.id].sort(),
    );
    // validFrom is inclusive, validTo exclusive: on the day of the move the new value holds.
    expect(ids(await searchMemories(ctx, { query: "lives", asOf: "2025-11-01" }))).toEqual(
      [lisbon.id, undated.id].sort(),
    );
    // The console lists everything without asOf, and the facts of that day with it.
    expect((await listMemories(ctx)).memories.map((m) => m.id).sort()).toEqual(
      [porto.id, lisbon.id, undated.id].sort(),
    );
    expect((await listMemories(ctx, { asOf: "2023-05-01" })).memories.map((m) => m.id).sort()).toEqual(
      [porto.id, undated.id].sort(),
    );
    await expect(searchMemories(ctx, { query: "lives", asOf: "yesterday" })).rejects.toMatchObject({
      code: "unprocessable",
    });
  });

  it("supersedes: the old memory keeps its text and gets validTo, a new one holds the new value from then", async () => {
    const ctx = await setup();
    const old = await createMemory(ctx, { content: "User lives in Toronto", validFrom: "2018-01-01" });
    await updateMemory(ctx, old.id, { pinned: true });
    const { closed, created } = await supersedeMemory(ctx, old.id, {
      content: "User lives in Vancouver",
      validFrom: "2025-11-01",
      expectedVersion: 2,
      reason: "moved",
    });
    expect(closed).toMatchObject({ id: old.id, text: "User lives in Toronto", version: 3, status: "active" });
    expect(closed.validTo?.toISOString()).toBe("2025-11-01T00:00:00.000Z");
    expect(created).toMatchObject({ text: "User lives in Vancouver", pinned: true, version: 1 });
    expect(created.validFrom?.toISOString()).toBe("2025-11-01T00:00:00.000Z");
    expect((await memoryHistory(ctx, old.id)).at(-1)?.reason).toBe(`superseded by memory ${created.id}: moved`);
    expect(ids(await searchMemories(ctx, { query: "where does the user live" }))).toEqual([created.id]);
    expect(ids(await searchMemories(ctx, { query: "where does the user live", asOf: "2024-01-01" }))).toEqual([old.id]);

    // A stale version, or a start before the old fact's own, changes nothing at all.
    await expect(
      supersedeMemory(ctx, created.id, {
        content: "User lives in Montreal",
        validFrom: "2025-12-01",
        expectedVersion: 9,
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    await expect(
      supersedeMemory(ctx, created.id, { content: "User lives in Montreal", validFrom: "2025-01-01" }),
    ).rejects.toMatchObject({ code: "unprocessable" });
    expect((await listMemories(ctx)).memories).toHaveLength(2);
  });

  it("pins as a version with who and why; pinning what is pinned writes nothing", async () => {
    const ctx = await setup();
    const memory = await createMemory(ctx, { content: "User is vegetarian" });
    const pinned = await updateMemory(ctx, memory.id, { pinned: true });
    expect(pinned).toMatchObject({ pinned: true, version: 2, text: "User is vegetarian" });
    expect(await updateMemory(ctx, memory.id, { pinned: true })).toMatchObject({ version: 2 });
    const unpinned = await updateMemory(ctx, memory.id, { pinned: false, reason: "not that important" });
    expect(unpinned).toMatchObject({ pinned: false, version: 3 });
    const history = await memoryHistory(ctx, memory.id);
    expect(history.map((version) => [version.op, version.pinned, version.reason])).toEqual([
      ["create", false, null],
      ["update", true, "pinned"],
      ["update", false, "not that important"],
    ]);
    expect(history[1]?.actor).toEqual(ctx.actor);
    expect((await listMemories(ctx, { pinned: true })).memories).toEqual([]);
  });

  it("recalls pinned memories into every chat turn, whatever the message is about, but not superseded ones", async () => {
    const ctx = await setup();
    const pinned = await createMemory(ctx, { content: "User is allergic to peanuts", pinned: true });
    await createMemory(ctx, {
      content: "User is allergic to cats",
      pinned: true,
      validFrom: "2010-01-01",
      validTo: "2020-01-01",
    });
    await createMemory(ctx, { content: "User likes jazz" });
    const recalled = await recallMemories(ctx, "what should I cook tonight?");
    expect(recalled.filter((memory) => memory.pinned).map((memory) => memory.id)).toEqual([pinned.id]);
    expect(recalled.find((memory) => memory.id === pinned.id)).toMatchObject({ pinned: true, score: 1 });
    expect(recalled.some((memory) => memory.text === "User is allergic to cats")).toBe(false);
  });

  it("the chat's manage_memory supersedes on an update with validFrom, and its search takes asOf", async () => {
    const ctx = await setup();
    const tools = createMemoryTools(ctx);
    const options = { toolCallId: "call-1", messages: [], context: {} };
    const toronto = await createMemory(ctx, { content: "User lives in Toronto" });
    const result = (await tools.manage_memory.execute?.(
      { action: "update", id: toronto.id, content: "User lives in Vancouver", validFrom: "2025-11-01" },
      options,
    )) as { action: string; id: string; supersededId?: string };
    expect(result).toMatchObject({ action: "superseded", supersededId: toronto.id });
    expect((await getMemory(ctx, toronto.id)).text).toBe("User lives in Toronto");
    const search = async (asOf?: string) => {
      const hits = (await tools.search_memory.execute!({ query: "where does the user live", asOf }, options)) as Array<{
        id: string;
      }>;
      return hits.map((hit) => hit.id);
    };
    expect(await search()).toEqual([result.id]);
    expect(await search("2024-01-01")).toEqual([toronto.id]);
    await expect(
      tools.manage_memory.execute?.({ action: "create", content: "x", validFrom: "soon" }, options),
    ).rejects.toThrow(/Invalid input/);
  });
});

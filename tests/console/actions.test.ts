import "../support/route-mocks";
import { beforeEach, expect, it } from "vitest";
import { createMemory, getMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor, routeHarness } from "../support/route-harness";

const actions = await import("@/app/(console)/memories/actions");
const { GET: exportRoute } = await import("@/app/(console)/memories/export/route");

describeEachDatabase("console server actions", (use) => {
  let me: string;
  beforeEach(async () => {
    routeHarness.database = use();
    routeHarness.revalidated = [];
    me = await createUser(use());
    routeHarness.principal = principalFor(me);
  });

  it("act in the signed-in person's namespace, as a console write, and refresh the console", async () => {
    const memory = await createMemory(contextFor(use(), me), { content: "Likes tea" });
    const result = await actions.editMemoryAction({
      id: memory.id,
      expectedVersion: 1,
      content: { content: "Likes coffee" },
      reason: "typo",
    });
    expect(result).toMatchObject({ ok: true, memory: { text: "Likes coffee", version: 2 } });
    const saved = await getMemory(contextFor(use(), me), memory.id);
    expect(saved.actor).toEqual({ type: "user", id: me });
    expect(saved.source.type).toBe("console");
    expect(routeHarness.revalidated).toEqual(["/memories"]);
  });

  it("refuse signed-out callers and never reach another user's memory, admins included", async () => {
    const other = await createUser(use());
    const theirs = await createMemory(contextFor(use(), other), { content: "Their fact" });
    routeHarness.principal = null;
    expect(await actions.changeStatusAction({ id: theirs.id, op: "delete", confirm: "delete" })).toMatchObject({
      ok: false,
      error: { code: "unauthorized" },
    });
    routeHarness.principal = principalFor(me, "admin");
    expect(await actions.changeStatusAction({ id: theirs.id, op: "purge", confirm: "purge" })).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect(
      await actions.editMemoryAction({ id: theirs.id, expectedVersion: 1, content: { content: "x" }, as: other }),
    ).toMatchObject({ ok: false, error: { code: "unprocessable", details: [{ path: [] }] } });
    expect(await actions.bulkStatusAction({ ids: [theirs.id], op: "delete" })).toEqual({
      ok: true,
      changed: 0,
      skipped: 1,
    });
    expect((await getMemory(contextFor(use(), other), theirs.id)).status).toBe("active");
  });

  it("import: dry run, then apply, into the caller's own namespace", async () => {
    const source = await createUser(use());
    await createMemory(contextFor(use(), source), { content: "Exported fact" });
    routeHarness.principal = principalFor(source);
    const file = await (await exportRoute()).text();
    routeHarness.principal = principalFor(me);
    expect(await actions.importAction({ file, apply: false })).toMatchObject({
      outcome: "planned",
      summary: { counts: { create: 1 } },
    });
    expect(await actions.importAction({ file, apply: true })).toMatchObject({ outcome: "applied", created: 1 });
    const ctx = contextFor(use(), me);
    const { listMemories } = await import("@/lib/memory/store");
    expect((await listMemories(ctx)).memories.map((memory) => memory.text)).toEqual(["Exported fact"]);
  });

  it("export is a session-only download", async () => {
    routeHarness.principal = null;
    const refused = await exportRoute();
    expect(refused.status).toBe(401);
    routeHarness.principal = principalFor(me);
    await createMemory(contextFor(use(), me), { content: "Downloadable" });
    const response = await exportRoute();
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="memories-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const body = (await response.json()) as { memories: Array<{ text: string; history: unknown[] }> };
    expect(body.memories.map((memory) => [memory.text, memory.history.length])).toEqual([["Downloadable", 1]]);
  });
});

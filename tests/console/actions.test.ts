import { beforeEach, expect, it, vi } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { Database } from "@/lib/db/client";
import { createMemory, getMemory } from "@/lib/memory";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

const state = vi.hoisted(() => ({
  database: undefined as Database | undefined,
  principal: null as Principal | null,
  revalidated: [] as string[],
}));
vi.mock("server-only", () => ({}));
vi.mock("@/app/(auth)/session", () => ({ currentPrincipal: async () => state.principal }));
vi.mock("@/lib/db", () => ({
  getDatabase: async () => {
    if (!state.database) throw new Error("no test database");
    return state.database;
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: (path: string) => state.revalidated.push(path) }));

const actions = await import("@/app/(console)/memories/actions");
const { GET: exportRoute } = await import("@/app/(console)/memories/export/route");

const principalFor = (userId: string, role: Principal["role"] = "user"): Principal => ({
  userId,
  role,
  root: ["users", userId],
  isGuest: false,
  email: null,
  name: null,
});

describeEachDatabase("console server actions", (use) => {
  let me: string;
  beforeEach(async () => {
    state.database = use();
    state.revalidated = [];
    me = await createUser(use());
    state.principal = principalFor(me);
  });

  it("act in the signed-in person's namespace, as a console write, and refresh the console", async () => {
    const memory = await createMemory(contextFor(use(), me), { content: "Likes tea" });
    const result = await actions.editMemoryAction({
      id: memory.id,
      expectedVersion: 1,
      content: { content: "Likes coffee" },
      reason: "typo",
    });
    expect(result).toMatchObject({ status: "ok", memory: { text: "Likes coffee", version: 2 } });
    const saved = await getMemory(contextFor(use(), me), memory.id);
    expect(saved.actor).toEqual({ type: "user", id: me });
    expect(saved.source.type).toBe("console");
    expect(state.revalidated).toEqual(["/memories"]);
  });

  it("refuse signed-out callers and never reach another user's memory, admins included", async () => {
    const other = await createUser(use());
    const theirs = await createMemory(contextFor(use(), other), { content: "Their fact" });
    state.principal = null;
    expect(await actions.changeStatusAction({ id: theirs.id, op: "delete", confirm: "delete" })).toMatchObject({
      status: "error",
    });
    state.principal = principalFor(me, "admin");
    expect(await actions.changeStatusAction({ id: theirs.id, op: "purge", confirm: "purge" })).toEqual({
      status: "not_found",
    });
    expect(
      await actions.editMemoryAction({ id: theirs.id, expectedVersion: 1, content: { content: "x" }, as: other }),
    ).toMatchObject({ status: "invalid", fieldErrors: { form: expect.any(String) } });
    expect(await actions.bulkStatusAction({ ids: [theirs.id], op: "delete" })).toEqual({
      status: "ok",
      changed: 0,
      skipped: 1,
    });
    expect((await getMemory(contextFor(use(), other), theirs.id)).status).toBe("active");
  });

  it("import: dry run, then apply, into the caller's own namespace", async () => {
    const source = await createUser(use());
    await createMemory(contextFor(use(), source), { content: "Exported fact" });
    state.principal = principalFor(source);
    const file = await (await exportRoute()).text();
    state.principal = principalFor(me);
    expect(await actions.importAction({ file, apply: false })).toMatchObject({
      status: "planned",
      summary: { counts: { create: 1 } },
    });
    expect(await actions.importAction({ file, apply: true })).toMatchObject({ status: "applied", created: 1 });
    const ctx = contextFor(use(), me);
    const { listMemories } = await import("@/lib/memory");
    expect((await listMemories(ctx)).memories.map((memory) => memory.text)).toEqual(["Exported fact"]);
  });

  it("export is a session-only download", async () => {
    state.principal = null;
    const refused = await exportRoute();
    expect(refused.status).toBe(401);
    state.principal = principalFor(me);
    await createMemory(contextFor(use(), me), { content: "Downloadable" });
    const response = await exportRoute();
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="memories-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const body = (await response.json()) as { memories: Array<{ text: string; history: unknown[] }> };
    expect(body.memories.map((memory) => [memory.text, memory.history.length])).toEqual([["Downloadable", 1]]);
  });
});

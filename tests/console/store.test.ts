import { sql } from "drizzle-orm";
import { beforeEach, expect, it } from "vitest";
import { listAuditEntries, recordAdminView } from "@/lib/console/audit";
import { exportNamespace } from "@/lib/console/export";
import { importNamespace } from "@/lib/console/import";
import { fieldErrorsOf } from "@/lib/console/kind-fields";
import { parseListQuery } from "@/lib/console/list-query";
import { listConsoleMemories, PAGE_SIZE } from "@/lib/console/memory-list";
import { bulkChangeStatus, changeMemoryStatus, editMemory, revertMemory } from "@/lib/console/mutations";
import { listExtractionRuns } from "@/lib/console/runs";
import { resolveScope } from "@/lib/console/scope";
import { loadSourceMessage } from "@/lib/console/source";
import { listMemoryUses } from "@/lib/console/usage";
import { listUsers } from "@/lib/console/users";
import { extractionRuns, memoryAccess, messages, threads } from "@/lib/db/schema";
import type { MemoryContext } from "@/lib/memory/core";
import { createMemory, getMemory, memoryHistory, purgeMemory } from "@/lib/memory/store";
import { bindingFor, contextFor, createUser, dumpAllRows } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { principalFor } from "../support/route-harness";

async function exportText(ctx: MemoryContext): Promise<string> {
  let text = "";
  for await (const chunk of exportNamespace(ctx)) text += chunk;
  return text;
}

describeEachDatabase("console", (use) => {
  let me: string;
  let ctx: MemoryContext;
  beforeEach(async () => {
    me = await createUser(use());
    ctx = contextFor(use(), me);
  });

  it("lists with kind, status and source filters, in each sort order, paging by keyset without gaps or repeats", async () => {
    for (let i = 0; i < PAGE_SIZE + 5; i++) await createMemory(ctx, { content: `note ${i}` });
    await createMemory(ctx, { kind: "preference", content: { preference: "tea" } });
    await createMemory({ ...ctx, provenance: { source: "chat" } }, { content: "from chat" });
    const chatOnly = await listConsoleMemories(ctx, parseListQuery({ source: "chat" }));
    expect(chatOnly.memories.map((memory) => memory.text)).toEqual(["from chat"]);
    const preferences = await listConsoleMemories(ctx, parseListQuery({ kind: "preference" }));
    expect(preferences.memories.map((memory) => memory.text)).toEqual(["tea"]);

    for (const sort of ["updated_desc", "created_asc"]) {
      const first = await listConsoleMemories(ctx, parseListQuery({ sort }));
      expect(first.memories).toHaveLength(PAGE_SIZE);
      const second = await listConsoleMemories(ctx, parseListQuery({ sort, cursor: first.nextCursor ?? "" }));
      expect(second.nextCursor).toBeNull();
      const texts = [...first.memories, ...second.memories].map((memory) => memory.text);
      expect(new Set(texts).size).toBe(PAGE_SIZE + 7);
      expect(texts[0]).toBe(sort === "created_asc" ? "note 0" : "from chat");
    }
    const [deleted] = (await listConsoleMemories(ctx, parseListQuery({}))).memories;
    await changeMemoryStatus(ctx, { id: deleted?.id, op: "delete", confirm: "delete" });
    const onlyDeleted = await listConsoleMemories(ctx, parseListQuery({ status: "deleted" }));
    expect(onlyDeleted.memories.map((memory) => memory.id)).toEqual([deleted?.id]);
    const garbageCursor = await listConsoleMemories(ctx, parseListQuery({ cursor: "garbage" }));
    expect(garbageCursor.memories).toHaveLength(PAGE_SIZE);
  });

  it("searches with the hybrid search and narrows by source", async () => {
    await createMemory(ctx, { content: "Prefers dark mode in every editor" });
    await createMemory({ ...ctx, provenance: { source: "chat" } }, { content: "Uses dark roast coffee" });
    await createMemory(ctx, { content: "Lives in Lisbon" });
    const hits = await listConsoleMemories(ctx, parseListQuery({ q: "dakr mode" }));
    expect(hits.mode).toBe("search");
    expect(hits.memories[0]?.text).toBe("Prefers dark mode in every editor");
    expect(hits.memories.every((memory) => typeof memory.score === "number")).toBe(true);
    const fromChat = await listConsoleMemories(ctx, parseListQuery({ q: "dark", source: "chat" }));
    expect(fromChat.memories.map((memory) => memory.text)).toEqual(["Uses dark roast coffee"]);
  });

  it("edits per kind with field errors, and refuses a stale version with the current one attached", async () => {
    const memory = await createMemory(ctx, { kind: "preference", content: { preference: "tea" } });
    const invalid = await editMemory(ctx, { id: memory.id, expectedVersion: 1, content: { preference: "" } });
    expect(invalid).toMatchObject({ ok: false, error: { code: "unprocessable" } });
    expect(fieldErrorsOf(invalid.ok ? [] : invalid.error.details)).toEqual({ preference: expect.any(String) });
    const unknownField = await editMemory(ctx, { id: memory.id, expectedVersion: 1, content: { flavour: "x" } });
    expect(unknownField).toMatchObject({ ok: false, error: { code: "unprocessable" } });

    const saved = await editMemory(ctx, { id: memory.id, expectedVersion: 1, content: { preference: "coffee" } });
    expect(saved).toMatchObject({ ok: true, memory: { version: 2, text: "coffee" } });
    const stale = await editMemory(ctx, { id: memory.id, expectedVersion: 1, content: { preference: "water" } });
    expect(stale).toMatchObject({ ok: false, error: { code: "conflict" }, theirs: { version: 2, text: "coffee" } });
    expect((await getMemory(ctx, memory.id)).text).toBe("coffee");
    expect(await editMemory(ctx, { id: "not-a-uuid", expectedVersion: 1, content: {} })).toMatchObject({
      ok: false,
      error: { code: "unprocessable", details: [{ path: ["id"] }] },
    });
  });

  it("needs the typed word for delete, restore and purge, and reverts by writing a new version", async () => {
    const memory = await createMemory(ctx, { content: "User prefers dark mode" });
    await editMemory(ctx, { id: memory.id, expectedVersion: 1, content: { content: "User prefers light mode" } });
    const reverted = await revertMemory(ctx, { id: memory.id, version: 1, expectedVersion: 2 });
    expect(reverted).toMatchObject({ ok: true, memory: { version: 3, text: "User prefers dark mode" } });
    const history = await memoryHistory(ctx, memory.id);
    expect(history.map((version) => [version.op, version.reason])).toEqual([
      ["create", null],
      ["update", null],
      ["update", "Reverted to version 1"],
    ]);
    expect(await revertMemory(ctx, { id: memory.id, version: 1, expectedVersion: 2 })).toMatchObject({
      error: { code: "conflict" },
    });

    expect(await changeMemoryStatus(ctx, { id: memory.id, op: "delete", confirm: "yes" })).toMatchObject({
      error: { code: "unprocessable", message: 'Type "delete" to confirm.' },
    });
    expect(await changeMemoryStatus(ctx, { id: memory.id, op: "delete", confirm: "Delete " })).toMatchObject({
      ok: true,
      memory: { status: "deleted" },
    });
    expect(await changeMemoryStatus(ctx, { id: memory.id, op: "restore", confirm: "restore" })).toMatchObject({
      memory: { status: "active" },
    });
    expect(await changeMemoryStatus(ctx, { id: memory.id, op: "purge", confirm: "purge" })).toMatchObject({
      memory: { status: "deleted", content: null, text: "" },
    });
    expect(await revertMemory(ctx, { id: memory.id, version: 1, expectedVersion: 7 })).toMatchObject({
      error: { code: "unprocessable" },
    });
  });

  it("never touches another user's memory: mutations and bulk answer not found / skipped", async () => {
    const other = await createUser(use());
    const theirs = await createMemory(contextFor(use(), other), { content: "Their secret" });
    const notFound = { ok: false, error: { code: "not_found" } };
    expect(
      await editMemory(ctx, { id: theirs.id, expectedVersion: 1, content: { content: "mine now" } }),
    ).toMatchObject(notFound);
    expect(await changeMemoryStatus(ctx, { id: theirs.id, op: "purge", confirm: "purge" })).toMatchObject(notFound);
    expect(await revertMemory(ctx, { id: theirs.id, version: 1, expectedVersion: 1 })).toMatchObject(notFound);
    const mine = await createMemory(ctx, { content: "Mine" });
    expect(await bulkChangeStatus(ctx, { ids: [mine.id, theirs.id], op: "delete" })).toEqual({
      ok: true,
      changed: 1,
      skipped: 1,
    });
    expect((await getMemory(contextFor(use(), other), theirs.id)).status).toBe("active");
    expect(await bulkChangeStatus(ctx, { ids: [], op: "delete" })).toMatchObject({
      ok: false,
      error: { code: "unprocessable", details: [{ message: "Select between 1 and 200 memories." }] },
    });
  });

  it("resolves scope: own namespace, admins read-only elsewhere, everyone else nothing", async () => {
    const other = await createUser(use());
    const own = await resolveScope(use(), principalFor(me), undefined);
    expect(own).toMatchObject({ readOnly: false, ctx: { principal: { userId: me }, actor: { type: "user" } } });
    const as = (userId: string) => ({ userId, view: { action: "view_memories" as const } });
    expect(await resolveScope(use(), principalFor(me), as(other))).toBeNull();
    const asAdmin = await resolveScope(use(), principalFor(me, "admin"), as(other));
    expect(asAdmin).toMatchObject({
      readOnly: true,
      owner: { id: other },
      ctx: { principal: { userId: other, root: ["users", other] }, actor: { type: "admin", id: me } },
    });
    expect(await resolveScope(use(), principalFor(me, "admin"), as(crypto.randomUUID()))).toBeNull();
    expect(await resolveScope(use(), principalFor(me, "admin"), as("not-a-uuid"))).toBeNull();
  });

  it("records admin views for the owner to read, newest first, paged", async () => {
    const admin = await createUser(use());
    await recordAdminView(bindingFor(use(), me), { adminId: admin, action: "view_memories", target: me });
    await recordAdminView(bindingFor(use(), me), { adminId: admin, action: "view_memory", target: "m-1" });
    const first = await listAuditEntries(bindingFor(use(), me), { limit: 1 });
    expect(first.entries).toHaveLength(1);
    const second = await listAuditEntries(bindingFor(use(), me), { limit: 1, cursor: first.nextCursor ?? undefined });
    expect([...first.entries, ...second.entries].map((entry) => entry.action).sort()).toEqual([
      "view_memories",
      "view_memory",
    ]);
    expect(second.entries[0]).toMatchObject({ actorType: "admin", actorId: admin, userId: me });
    expect((await listAuditEntries(bindingFor(use(), admin))).entries).toEqual([]);
  });

  it("pages through rows the database stamped within one millisecond without skipping any", async () => {
    const owner = await createUser(use());
    const admin = await createUser(use());
    for (const at of ["2026-03-01T10:00:00.123100Z", "2026-03-01T10:00:00.123456Z", "2026-03-01T10:00:00.123300Z"]) {
      await use().unbound.rows(sql`
        insert into audit_log (user_id, actor_type, actor_id, action, target, created_at)
        values (${owner}::uuid, 'admin', ${admin}, 'view_memory', ${at}, ${at}::timestamptz)`);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAuditEntries(bindingFor(use(), owner), { limit: 1, cursor });
      seen.push(...page.entries.map((entry) => entry.target ?? ""));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
  });

  it("exports everything with history, and imports it elsewhere after a dry run that writes nothing", async () => {
    await createMemory(ctx, { content: "Works on billing", namespace: ["work"], metadata: { team: "payments" } });
    const preference = await createMemory(ctx, {
      kind: "preference",
      content: { subject: "editor", preference: "Neovim" },
    });
    await editMemory(ctx, {
      id: preference.id,
      expectedVersion: 1,
      content: { subject: "editor", preference: "Helix" },
    });
    const forgotten = await createMemory(ctx, { content: "Lives in Lisbon" });
    await changeMemoryStatus(ctx, { id: forgotten.id, op: "delete", confirm: "delete" });
    const erased = await createMemory(ctx, { content: "Secret to erase" });
    await purgeMemory(ctx, erased.id);

    const text = await exportText(ctx);
    const file = JSON.parse(text) as { format: string; memories: Array<{ text: string; history: unknown[] }> };
    expect(file.format).toBe("memory-ledger/export");
    expect(file.memories).toHaveLength(4);
    expect(file.memories.find((memory) => memory.text === "editor: Helix")?.history).toHaveLength(2);
    expect(text).not.toContain("Secret to erase");

    const target = contextFor(use(), await createUser(use()));
    const planned = await importNamespace(target, { file: text, apply: false });
    expect(planned).toMatchObject({
      ok: true,
      outcome: "planned",
      summary: { total: 4, counts: { create: 3, purged: 1, unchanged: 0, conflict: 0, invalid: 0 } },
    });
    expect((await listConsoleMemories(target, parseListQuery({ status: "all" }))).memories).toEqual([]);

    const applied = await importNamespace(target, { file: text, apply: true });
    expect(applied).toMatchObject({ ok: true, outcome: "applied", created: 3 });
    const imported = (await listConsoleMemories(target, parseListQuery({ status: "all" }))).memories;
    expect(imported.map((memory) => [memory.text, memory.status, memory.namespace]).sort()).toEqual([
      ["Lives in Lisbon", "deleted", []],
      ["Works on billing", "active", ["work"]],
      ["editor: Helix", "active", []],
    ]);
    expect(imported.find((memory) => memory.text === "Works on billing")?.metadata).toEqual({ team: "payments" });

    const again = await importNamespace(target, { file: text, apply: true });
    expect(again).toMatchObject({ outcome: "applied", created: 0, summary: { counts: { unchanged: 3, create: 0 } } });
  });

  it("rejects files that are not exports and skips invalid or conflicting memories with a reason", async () => {
    const notAnExport = { ok: false, error: { code: "unprocessable" } };
    expect(await importNamespace(ctx, { file: "not json", apply: false })).toMatchObject({
      ok: false,
      error: { message: "This is not a Memory Ledger export file.", details: [{ message: "The file is not JSON." }] },
    });
    expect(await importNamespace(ctx, { file: '{"format":"other"}', apply: false })).toMatchObject({
      ...notAnExport,
      error: { details: expect.arrayContaining([expect.objectContaining({ path: ["file", "format"] })]) },
    });
    expect(await importNamespace(ctx, { file: "", apply: false })).toMatchObject(notAnExport);

    await createMemory(ctx, { content: "Existing fact", key: "fact" });
    const base = {
      status: "active",
      version: 1,
      metadata: {},
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      source: { type: "console" },
      actor: { type: "user", id: "x" },
      history: [],
    };
    const file = JSON.stringify({
      format: "memory-ledger/export",
      version: 1,
      exportedAt: "2026-01-01T00:00:00.000Z",
      memories: [
        {
          ...base,
          id: crypto.randomUUID(),
          namespace: [],
          key: "fact",
          kind: "memory",
          content: { content: "Other fact" },
          text: "Other fact",
        },
        {
          ...base,
          id: crypto.randomUUID(),
          namespace: [],
          key: "bad",
          kind: "preference",
          content: { nope: 1 },
          text: "",
        },
        {
          ...base,
          id: crypto.randomUUID(),
          namespace: ["a.b"],
          key: "dot",
          kind: "memory",
          content: { content: "x" },
          text: "x",
        },
        { ...base, id: crypto.randomUUID(), namespace: [], key: "k", kind: "unknown-kind", content: {}, text: "" },
        {
          ...base,
          id: crypto.randomUUID(),
          namespace: [],
          key: "new",
          kind: "memory",
          content: { content: "New" },
          text: "New",
        },
        {
          ...base,
          id: crypto.randomUUID(),
          namespace: [],
          key: "new",
          kind: "memory",
          content: { content: "Again" },
          text: "Again",
        },
      ],
    });
    const result = await importNamespace(ctx, { file, apply: false });
    expect(result).toMatchObject({ outcome: "planned", summary: { counts: { conflict: 1, invalid: 4, create: 1 } } });
    if (!result.ok) throw new Error("unreachable");
    expect(result.summary.skipped.map((item) => item.key)).toEqual(["fact", "bad", "dot", "k", "new"]);
    expect(result.summary.skipped.every((item) => item.message)).toBe(true);
  });

  it("reads a memory's source message and the answers that used it; a purge leaves no trace of the text", async () => {
    const database = use();
    await database.unbound.db.insert(threads).values({ userId: me, id: "t-1", title: "Display chat" });
    await database.unbound.db.insert(messages).values({
      userId: me,
      id: "msg-1",
      threadId: "t-1",
      position: 0,
      role: "user",
      parts: [{ type: "text", text: "Hi. Remember that I prefer dark mode" }],
    });
    const memory = await createMemory(
      { ...ctx, provenance: { source: "chat", threadId: "t-1", messageId: "msg-1", quote: "I prefer dark mode" } },
      { content: "User prefers dark mode" },
    );
    expect(await loadSourceMessage(bindingFor(database, me), memory.source)).toMatchObject({
      threadId: "t-1",
      threadTitle: "Display chat",
      text: "Hi. Remember that I prefer dark mode",
    });
    const other = await createUser(use());
    expect(await loadSourceMessage(bindingFor(database, other), memory.source)).toBeNull();

    await database.unbound.db.insert(memoryAccess).values({
      userId: me,
      messageId: "answer-1",
      memoryId: memory.id,
      threadId: "t-1",
      via: "recall",
      score: 0.5,
      rank: 0,
    });
    expect(await listMemoryUses(bindingFor(database, me), memory.id)).toMatchObject({
      uses: [{ threadTitle: "Display chat", via: "recall", messageId: "answer-1" }],
      truncated: false,
    });
    expect(await listMemoryUses(bindingFor(database, other), memory.id)).toEqual({ uses: [], truncated: false });
    // A second answer: a list of the latest one says that it leaves one out.
    await database.unbound.db.insert(memoryAccess).values({
      userId: me,
      messageId: "answer-2",
      memoryId: memory.id,
      threadId: "t-1",
      via: "search",
      score: 0.4,
      rank: 1,
    });
    expect(await listMemoryUses(bindingFor(database, me), memory.id, 1)).toMatchObject({
      uses: [{ messageId: expect.any(String) }],
      truncated: true,
    });
    expect((await listMemoryUses(bindingFor(database, me), memory.id, 2)).truncated).toBe(false);

    await changeMemoryStatus(ctx, { id: memory.id, op: "purge", confirm: "purge" });
    await database.unbound.db.delete(threads).where(sql`user_id = ${me}::uuid`);
    expect(await dumpAllRows(use())).not.toContain("User prefers dark mode");
  });

  it("lists extraction runs newest first with their ops, filtered by status", async () => {
    const database = use();
    const base = { userId: me, threadId: "t-9", namespace: ["users", me], fromPosition: 0, throughPosition: 2 };
    await database.unbound.db.insert(extractionRuns).values([
      {
        ...base,
        status: "succeeded",
        opsProposed: [
          { op: "insert", kind: "memory", content: { content: "Likes tea" }, messageId: "m", quote: "tea" },
        ],
        opsApplied: [{ op: "insert", memoryId: crypto.randomUUID(), version: 1, text: "Likes tea" }],
        createdAt: new Date("2026-01-01T00:00:00Z"),
      },
      {
        ...base,
        status: "failed",
        error: "model timed out",
        opsRejected: [{ op: { op: "delete", id: "x", reason: "r" }, reason: "unknown id" }],
        createdAt: new Date("2026-01-02T00:00:00Z"),
      },
    ]);
    const all = await listExtractionRuns(bindingFor(database, me));
    expect(all.runs.map((run) => run.status)).toEqual(["failed", "succeeded"]);
    expect(all.runs[1]?.applied[0]).toMatchObject({ op: "insert", text: "Likes tea" });
    expect(all.runs[0]?.rejected[0]).toMatchObject({ op: "delete", reason: "unknown id" });
    expect((await listExtractionRuns(bindingFor(database, me), { status: "failed" })).runs).toHaveLength(1);
    const paged = await listExtractionRuns(bindingFor(database, me), { limit: 1 });
    const rest = await listExtractionRuns(bindingFor(database, me), {
      limit: 1,
      cursor: paged.nextCursor ?? undefined,
    });
    expect(rest.runs.map((run) => run.status)).toEqual(["succeeded"]);
    expect((await listExtractionRuns(bindingFor(database, await createUser(use())))).runs).toEqual([]);
  });

  it("finds users for the admin picker by id, email or name", async () => {
    const found = await listUsers(use(), { search: me });
    expect(found.users.map((user) => user.id)).toEqual([me]);
    expect((await listUsers(use(), { search: "%" })).users).toEqual([]);
  });

  it("pages the admin's user list by keyset: every matching user once, then no cursor", async () => {
    const name = `pager ${crypto.randomUUID()}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await createUser(use());
      await use().unbound.rows(sql`update users set name = ${name} where id = ${id} returning id`);
      ids.push(id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listUsers(use(), { search: name, cursor, limit: 2 });
      expect(page.users.length).toBeLessThanOrEqual(2);
      seen.push(...page.users.map((user) => user.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].sort());
    // The page's URL carries the cursor: one the list did not make starts over.
    const restarted = await listUsers(use(), { search: name, cursor: "not-a-cursor", limit: 2 });
    expect(restarted.users.map((user) => user.id)).toEqual(seen.slice(0, 2));
  });
});

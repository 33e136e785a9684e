import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import {
  createKindRegistry,
  defineKind,
  MemoryConflictError,
  MemoryNotFoundError,
  PayloadTooLargeError,
  renderFields,
} from "@/lib/memory/core";
import {
  createMemory,
  deleteMemory,
  getMemory,
  listMemories,
  memoryHistory,
  purgeMemory,
  restoreMemory,
  serializeMemory,
  updateMemory,
} from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser, dumpAllRows } from "./support";

describeEachDatabase("memory store", (use) => {
  it("create → update → delete → restore keeps four versions with actors and provenance", async () => {
    const userId = await createUser(use());
    const user = contextFor(use(), userId);
    const agent = contextFor(use(), userId, {
      actor: { type: "agent", id: "offline" },
      provenance: { threadId: "thread-1", messageId: "message-1" },
    });

    const created = await createMemory(agent, {
      content: "I use Neovim as my editor",
      provenance: { quote: "I use Neovim" },
      reason: "stated by the user",
    });
    expect(created).toMatchObject({ version: 1, kind: "memory", status: "active", text: "I use Neovim as my editor" });
    expect(created.content).toEqual({ content: "I use Neovim as my editor" });
    expect(created.source).toEqual({
      type: "chat",
      threadId: "thread-1",
      messageId: "message-1",
      quote: "I use Neovim",
    });

    const updated = await updateMemory(user, created.id, { content: "I use Helix as my editor", expectedVersion: 1 });
    const deleted = await deleteMemory(agent, created.id, { reason: "user said to forget" });
    const restored = await restoreMemory(user, created.id);
    expect([updated.version, deleted.version, restored.version]).toEqual([2, 3, 4]);
    expect(deleted.status).toBe("deleted");
    expect(restored.status).toBe("active");
    expect(restored.text).toBe("I use Helix as my editor");
    expect(restored.actor).toEqual({ type: "user", id: userId });

    const history = await memoryHistory(user, created.id);
    expect(history.map((v) => [v.version, v.op, v.actor.type, v.status])).toEqual([
      [1, "create", "agent", "active"],
      [2, "update", "user", "active"],
      [3, "delete", "agent", "deleted"],
      [4, "restore", "user", "active"],
    ]);
    expect(history[0]).toMatchObject({
      reason: "stated by the user",
      text: "I use Neovim as my editor",
      source: { type: "chat", threadId: "thread-1", messageId: "message-1", quote: "I use Neovim" },
    });
    expect(history[1]?.source).toEqual({ type: "console" });
    expect(history[2]).toMatchObject({ reason: "user said to forget", source: { threadId: "thread-1" } });
  });

  it("rejects a stale expectedVersion with a conflict and writes nothing", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const memory = await createMemory(ctx, { content: "likes tea" });
    await updateMemory(ctx, memory.id, { content: "likes green tea", expectedVersion: 1 });
    const stale = updateMemory(ctx, memory.id, { content: "likes coffee", expectedVersion: 1 });
    await expect(stale).rejects.toBeInstanceOf(MemoryConflictError);
    await expect(deleteMemory(ctx, memory.id, { expectedVersion: 1 })).rejects.toMatchObject({ currentVersion: 2 });
    expect((await getMemory(ctx, memory.id)).text).toBe("likes green tea");
    expect(await memoryHistory(ctx, memory.id)).toHaveLength(2);
  });

  it("serialises concurrent updates: every write lands as its own version", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const memory = await createMemory(ctx, { content: "counter 0" });
    await Promise.all(
      Array.from({ length: 6 }, (_, index) => updateMemory(ctx, memory.id, { content: `counter ${index + 1}` })),
    );
    const history = await memoryHistory(ctx, memory.id);
    expect(history.map((version) => version.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await getMemory(ctx, memory.id)).version).toBe(7);
  });

  it("lets only one of two writers with the same expectedVersion win", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const memory = await createMemory(ctx, { content: "shared" });
    const results = await Promise.allSettled([
      updateMemory(ctx, memory.id, { content: "first", expectedVersion: 1 }),
      updateMemory(ctx, memory.id, { content: "second", expectedVersion: 1 }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected?.status === "rejected" && rejected.reason).toBeInstanceOf(MemoryConflictError);
  });

  it("refuses to update a tombstone and treats repeated delete/restore as no-ops", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const memory = await createMemory(ctx, { content: "temporary" });
    await deleteMemory(ctx, memory.id);
    await expect(updateMemory(ctx, memory.id, { content: "x" })).rejects.toBeInstanceOf(MemoryConflictError);
    expect((await deleteMemory(ctx, memory.id)).version).toBe(2);
    await restoreMemory(ctx, memory.id);
    expect((await restoreMemory(ctx, memory.id)).version).toBe(3);
  });

  it("purge leaves the text nowhere in the database but keeps ids, ops and the content hash", async () => {
    const database = use();
    const ctx = contextFor(database, await createUser(database), {
      provenance: { threadId: "t-purge", quote: "my passport number is ZX-4451-PURGE" },
    });
    const secret = "my passport number is ZX-4451-PURGE";
    const memory = await createMemory(ctx, {
      content: secret,
      metadata: { note: "ZX-4451-PURGE" },
      reason: "ZX-4451-PURGE was stated",
    });
    await updateMemory(ctx, memory.id, { content: `${secret} (renewed)`, reason: "renewed ZX-4451-PURGE" });
    await deleteMemory(ctx, memory.id);
    expect(await dumpAllRows(database)).toContain("ZX-4451-PURGE");

    const purged = await purgeMemory(ctx, memory.id, { reason: "erase ZX-4451-PURGE" });
    expect(await dumpAllRows(database)).not.toContain("ZX-4451-PURGE");
    expect(purged).toMatchObject({ id: memory.id, status: "deleted", content: null, text: "", version: 4 });
    expect(purged.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(purged.purgedAt).toBeInstanceOf(Date);
    const history = await memoryHistory(ctx, memory.id);
    expect(history.map((v) => [v.op, v.text, v.content, v.reason])).toEqual([
      ["create", "", null, null],
      ["update", "", null, null],
      ["delete", "", null, null],
      ["purge", "", null, null],
    ]);
    expect(history[0]?.contentHash).toBe(memory.contentHash);
    expect(history[0]?.source).toEqual({ type: "console", threadId: "t-purge" });
    await expect(restoreMemory(ctx, memory.id)).rejects.toBeInstanceOf(MemoryConflictError);
  });

  it("validates content against its kind and renders text", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const preference = await createMemory(ctx, {
      kind: "preference",
      content: { subject: "editor", preference: "dark mode", context: "at night" },
    });
    expect(preference.text).toBe("editor: dark mode (at night)");
    const triple = await createMemory(ctx, {
      kind: "triple",
      content: { subject: "Ada", predicate: "works at", object: "Acme" },
    });
    expect(triple.text).toBe("Ada works at Acme");
    await expect(createMemory(ctx, { kind: "preference", content: { colour: "blue" } })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(createMemory(ctx, { kind: "nope", content: "x" })).rejects.toBeInstanceOf(ValidationError);
    await expect(createMemory(ctx, { content: "x".repeat(40_000) })).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it("accepts custom kinds registered by name with their own zod schema", async () => {
    const kinds = createKindRegistry([
      defineKind({
        name: "contact",
        schema: z.strictObject({ name: z.string(), phone: z.string() }),
        render: renderFields,
      }),
    ]);
    const ctx = contextFor(use(), await createUser(use()), { kinds });
    const contact = await createMemory(ctx, { kind: "contact", content: { name: "Bo", phone: "555" } });
    expect(contact.text).toBe("name: Bo\nphone: 555");
    await expect(createMemory(ctx, { kind: "contact", content: { name: "Bo" } })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(() => createKindRegistry([defineKind({ name: "memory", schema: z.string(), render: String })])).toThrow();
  });

  it("keeps one profile per namespace, updated in place", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const first = await createMemory(ctx, { kind: "profile", namespace: ["me"], content: { name: "Ada" } });
    const second = await createMemory(ctx, {
      kind: "profile",
      namespace: ["me"],
      content: { name: "Ada", language: "Rust" },
    });
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({ key: "profile", version: 2, text: "name: Ada\nlanguage: Rust" });
    const other = await createMemory(ctx, { kind: "profile", namespace: ["work"], content: { name: "A." } });
    expect(other.id).not.toBe(first.id);
  });

  it("brings a deleted or purged profile back when it is written again", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const first = await createMemory(ctx, { kind: "profile", content: { name: "Ada" } });
    await deleteMemory(ctx, first.id);
    const again = await createMemory(ctx, { kind: "profile", content: { name: "Ada", city: "Oslo" } });
    expect(again).toMatchObject({ id: first.id, status: "active", text: "name: Ada\ncity: Oslo" });
    await purgeMemory(ctx, first.id);
    const fresh = await createMemory(ctx, { kind: "profile", content: { name: "Ada L." } });
    expect(fresh).toMatchObject({ id: first.id, status: "active", text: "name: Ada L.", purgedAt: null });
    expect((await listMemories(ctx, { kind: "profile" })).memories).toHaveLength(1);
    expect((await memoryHistory(ctx, first.id)).map((v) => v.op)).toEqual([
      "create",
      "delete",
      "restore",
      "update",
      "purge",
      "restore",
      "update",
    ]);
  });

  it("rejects a duplicate key in one namespace but allows it in another", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    await createMemory(ctx, { content: "a", key: "k", namespace: ["x"] });
    await expect(createMemory(ctx, { content: "b", key: "k", namespace: ["x"] })).rejects.toBeInstanceOf(
      MemoryConflictError,
    );
    expect((await createMemory(ctx, { content: "b", key: "k", namespace: ["y"] })).key).toBe("k");
  });

  it("raises not-found for absent and malformed ids", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    await expect(getMemory(ctx, crypto.randomUUID())).rejects.toBeInstanceOf(MemoryNotFoundError);
    await expect(getMemory(ctx, "not-a-uuid")).rejects.toBeInstanceOf(MemoryNotFoundError);
    await expect(updateMemory(ctx, "1", { content: "x" })).rejects.toBeInstanceOf(MemoryNotFoundError);
  });

  describe("listing", () => {
    it("pages newest first with an opaque cursor and filters by kind, status and metadata", async () => {
      const ctx = contextFor(use(), await createUser(use()));
      const created = [];
      for (let index = 0; index < 5; index++) {
        created.push(
          await createMemory(ctx, {
            content: `note ${index}`,
            metadata: { priority: index, tag: index % 2 ? "odd" : "even" },
          }),
        );
      }
      await createMemory(ctx, { kind: "procedure", content: { rule: "answer briefly" } });
      await deleteMemory(ctx, created[0]?.id as string);

      const first = await listMemories(ctx, { limit: 2, kind: "memory" });
      expect(first.memories.map((m) => m.text)).toEqual(["note 4", "note 3"]);
      const second = await listMemories(ctx, { limit: 2, kind: "memory", cursor: first.nextCursor as string });
      expect(second.memories.map((m) => m.text)).toEqual(["note 2", "note 1"]);
      expect(second.nextCursor).toBeNull();

      const tombstones = await listMemories(ctx, { status: "deleted" });
      expect(tombstones.memories.map((m) => m.text)).toEqual(["note 0"]);
      expect((await listMemories(ctx, { status: "all" })).memories).toHaveLength(6);
      const filtered = await listMemories(ctx, { metadata: { priority: { $gte: 2 }, tag: { $ne: "odd" } } });
      expect(filtered.memories.map((m) => m.text)).toEqual(["note 4", "note 2"]);
      const inList = await listMemories(ctx, { metadata: { priority: { $in: [1, 3] } } });
      expect(inList.memories.map((m) => m.text)).toEqual(["note 3", "note 1"]);
      await expect(listMemories(ctx, { cursor: "garbage" })).rejects.toBeInstanceOf(ValidationError);
    });
  });

  it("serialises to the HTTP memory shape", async () => {
    const ctx = contextFor(use(), await createUser(use()), {
      actor: { type: "extractor", id: "run-7" },
      provenance: { runId: "run-7", threadId: "t", messageId: "m", quote: "q" },
    });
    const memory = await createMemory(ctx, { content: "fact", namespace: ["a", "b"], metadata: { x: 1 } });
    const json = serializeMemory(memory);
    expect(Object.keys(json)).toEqual([
      "id",
      "namespace",
      "key",
      "kind",
      "content",
      "text",
      "status",
      "version",
      "metadata",
      "pinned",
      "validFrom",
      "validTo",
      "mergedInto",
      "mergedFrom",
      "support",
      "createdAt",
      "updatedAt",
      "source",
      "actor",
    ]);
    expect(json).toMatchObject({
      namespace: ["a", "b"],
      source: { type: "extraction", threadId: "t", messageId: "m", quote: "q", runId: "run-7" },
      actor: { type: "extractor", id: "run-7" },
      createdAt: "2026-01-01T00:00:00.000Z",
    });
  });
});

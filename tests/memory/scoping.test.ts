import { expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { MemoryNotFoundError } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import {
  createMemory,
  deleteMemory,
  getMemory,
  listMemories,
  listNamespaces,
  memoryHistory,
  purgeMemory,
  updateMemory,
} from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser } from "./support";

describeEachDatabase("memory scoping", (use) => {
  it("keeps users/1 and users/10 apart in get, list, search and listNamespaces", async () => {
    const owner = await createUser(use());
    // Same owning row, roots that share a string prefix: only whole-segment matching keeps them apart.
    const one = contextFor(use(), owner, { principal: { userId: owner, root: ["users", "1"] } });
    const ten = contextFor(use(), owner, { principal: { userId: owner, root: ["users", "10"] } });
    const inOne = await createMemory(one, { content: "alpha fact about gardening", namespace: ["notes"] });
    const inTen = await createMemory(ten, { content: "beta fact about gardening", namespace: ["notes"] });

    await expect(getMemory(one, inTen.id)).rejects.toBeInstanceOf(MemoryNotFoundError);
    await expect(getMemory(ten, inOne.id)).rejects.toBeInstanceOf(MemoryNotFoundError);
    expect((await listMemories(one)).memories.map((m) => m.id)).toEqual([inOne.id]);
    expect((await listMemories(ten)).memories.map((m) => m.id)).toEqual([inTen.id]);
    expect((await searchMemories(one, { query: "gardening" })).map((r) => r.memory.id)).toEqual([inOne.id]);
    expect((await searchMemories(ten, { query: "gardening" })).map((r) => r.memory.id)).toEqual([inTen.id]);
    expect((await listNamespaces(one)).namespaces).toEqual([["notes"]]);
    expect((await listNamespaces(ten)).namespaces).toEqual([["notes"]]);
  });

  it("never lets one user read or write another's memory", async () => {
    const alice = contextFor(use(), await createUser(use()));
    const bob = contextFor(use(), await createUser(use()));
    const secret = await createMemory(alice, { content: "alice's locker code is 1234" });
    await expect(getMemory(bob, secret.id)).rejects.toBeInstanceOf(MemoryNotFoundError);
    await expect(updateMemory(bob, secret.id, { content: "pwned" })).rejects.toBeInstanceOf(MemoryNotFoundError);
    await expect(deleteMemory(bob, secret.id)).rejects.toBeInstanceOf(MemoryNotFoundError);
    await expect(purgeMemory(bob, secret.id)).rejects.toBeInstanceOf(MemoryNotFoundError);
    await expect(memoryHistory(bob, secret.id)).rejects.toBeInstanceOf(MemoryNotFoundError);
    expect(await searchMemories(bob, { query: "locker code" })).toEqual([]);
    expect((await listMemories(bob, { status: "all" })).memories).toEqual([]);
    expect((await getMemory(alice, secret.id)).version).toBe(1);
  });

  it("matches namespace prefixes by whole segments and treats % _ * \\ as plain characters", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const names = ["1", "10", "a%", "a_b", "a*", "a\\b", 'q"uote', "x,y", "{z}"];
    for (const name of names) await createMemory(ctx, { content: `marker ${name}`, namespace: [name, "leaf"] });

    for (const name of names) {
      const page = await listMemories(ctx, { namespace: [name] });
      expect(page.memories.map((m) => m.namespace)).toEqual([[name, "leaf"]]);
    }
    expect((await listMemories(ctx, { namespace: ["a"] })).memories).toEqual([]);
    expect((await listMemories(ctx, { namespace: ["%"] })).memories).toEqual([]);
    expect((await searchMemories(ctx, { query: "marker", namespace: ["a_b"] })).map((r) => r.memory.namespace)).toEqual(
      [["a_b", "leaf"]],
    );
    expect((await listNamespaces(ctx, { prefix: ["a%"] })).namespaces).toEqual([["a%", "leaf"]]);
  });

  it("rejects namespace segments containing a dot, empty segments and over-deep namespaces", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    await expect(createMemory(ctx, { content: "x", namespace: ["a.b"] })).rejects.toBeInstanceOf(ValidationError);
    await expect(createMemory(ctx, { content: "x", namespace: [""] })).rejects.toBeInstanceOf(ValidationError);
    await expect(listMemories(ctx, { namespace: ["a.b"] })).rejects.toBeInstanceOf(ValidationError);
    await expect(
      createMemory(ctx, { content: "x", namespace: Array.from({ length: 9 }, (_, i) => `s${i}`) }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it("lists namespaces relative to the root with prefix, suffix, maxDepth, and pages them by cursor", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const spaces = [
      ["work", "acme", "notes"],
      ["work", "acme", "people"],
      ["work", "globex", "notes"],
      ["home", "notes"],
    ];
    for (const namespace of spaces) await createMemory(ctx, { content: "x", namespace });
    const gone = await createMemory(ctx, { content: "x", namespace: ["trash"] });
    await deleteMemory(ctx, gone.id);

    expect(await listNamespaces(ctx)).toEqual({
      namespaces: [
        ["home", "notes"],
        ["work", "acme", "notes"],
        ["work", "acme", "people"],
        ["work", "globex", "notes"],
      ],
      nextCursor: null,
    });
    expect((await listNamespaces(ctx, { prefix: ["work"], maxDepth: 2 })).namespaces).toEqual([
      ["work", "acme"],
      ["work", "globex"],
    ]);
    expect((await listNamespaces(ctx, { suffix: ["notes"] })).namespaces).toEqual([
      ["home", "notes"],
      ["work", "acme", "notes"],
      ["work", "globex", "notes"],
    ]);
    const first = await listNamespaces(ctx, { limit: 2 });
    expect(first.namespaces).toEqual([
      ["home", "notes"],
      ["work", "acme", "notes"],
    ]);
    expect(await listNamespaces(ctx, { limit: 2, cursor: first.nextCursor! })).toEqual({
      namespaces: [
        ["work", "acme", "people"],
        ["work", "globex", "notes"],
      ],
      nextCursor: null,
    });
    const truncated = await listNamespaces(ctx, { prefix: ["work"], maxDepth: 2, limit: 1 });
    expect(truncated.namespaces).toEqual([["work", "acme"]]);
    expect(await listNamespaces(ctx, { prefix: ["work"], maxDepth: 2, cursor: truncated.nextCursor! })).toEqual({
      namespaces: [["work", "globex"]],
      nextCursor: null,
    });
    await expect(listNamespaces(ctx, { cursor: "not-a-cursor" })).rejects.toBeInstanceOf(ValidationError);
  });
});

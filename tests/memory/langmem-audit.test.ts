import { expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import { contentHash, NamespaceTemplateError, resolveNamespaceTemplate } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import { deleteMemory, getMemory, listMemories, memoryHistory, updateMemory } from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser } from "./support";

/** The four behaviours a LangMem audit found missing or unsafe, pinned down. */
describeEachDatabase("LangMem audit behaviours", (use) => {
  const callOptions = { toolCallId: "c", messages: [], context: {} };

  it("a memory written under one user is invisible to a search under another", async () => {
    const writer = contextFor(use(), await createUser(use()));
    const reader = contextFor(use(), await createUser(use()));
    const tools = createMemoryTools(writer, { namespace: ["memories", "{userId}"] });
    await tools.manage_memory.execute?.({ action: "create", content: "My bank is Monzo" }, callOptions);
    expect(await searchMemories(reader, { query: "which bank do I use?" })).toEqual([]);
    const readerTools = createMemoryTools(reader, { namespace: ["memories", "{userId}"] });
    expect(await readerTools.search_memory.execute?.({ query: "bank Monzo" }, callOptions)).toEqual([]);
    expect((await searchMemories(writer, { query: "which bank do I use?" })).length).toBe(1);
  });

  it("a namespace template with a missing key raises instead of writing to a shared namespace", () => {
    expect(() => resolveNamespaceTemplate(["memories", "{langgraph_user_id}"], {})).toThrow(NamespaceTemplateError);
  });

  it("a tool-written memory is read, updated and deleted by the same store code as any other writer", async () => {
    const ctx = contextFor(use(), await createUser(use()), { provenance: { threadId: "t1" } });
    const tools = createMemoryTools(ctx);
    const created = (await tools.manage_memory.execute?.({ action: "create", content: "Likes jazz" }, callOptions)) as {
      id: string;
    };
    const stored = await getMemory(ctx, created.id);
    expect(stored).toMatchObject({ kind: "memory", content: { content: "Likes jazz" }, actor: { type: "agent" } });
    await updateMemory(ctx, created.id, { content: "Likes jazz and soul", expectedVersion: 1 });
    await tools.manage_memory.execute?.({ action: "update", id: created.id, content: "Likes soul" }, callOptions);
    await deleteMemory(ctx, created.id);
    expect((await memoryHistory(ctx, created.id)).map((v) => `${v.op}:${v.actor.type}`)).toEqual([
      "create:agent",
      "update:user",
      "update:agent",
      "delete:user",
    ]);
  });

  it("a deleted fact stays findable as a tombstone, with a hash that matches a restatement", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const tools = createMemoryTools(ctx);
    const created = (await tools.manage_memory.execute?.(
      { action: "create", content: "The user is vegetarian" },
      callOptions,
    )) as { id: string };
    await tools.manage_memory.execute?.({ action: "delete", id: created.id }, callOptions);

    expect(await searchMemories(ctx, { query: "vegetarian" })).toEqual([]);
    const [tombstone] = await searchMemories(ctx, { query: "is the user vegetarian?", status: "deleted" });
    expect(tombstone?.memory).toMatchObject({ id: created.id, status: "deleted", text: "The user is vegetarian" });
    expect(tombstone?.memory.contentHash).toBe(contentHash("  the user is   VEGETARIAN "));
    expect((await listMemories(ctx, { status: "deleted" })).memories.map((m) => m.id)).toEqual([created.id]);
  });
});

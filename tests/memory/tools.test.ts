import { asSchema, generateText, isStepCount, type Schema } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { expect, it } from "vitest";
import { createMemoryTools } from "@/lib/chat/memory-tools";
import {
  type AppliedMemoryOutput,
  type ManageMemoryInput,
  manageMemoryOutput,
  memoryHit,
  toModelMemory,
} from "@/lib/memory/contract";
import { type MemoryContext, NamespaceTemplateError } from "@/lib/memory/core";
import { createMemory, getMemory, memoryHistory } from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser } from "./support";

const callOptions = { toolCallId: "call-1", messages: [], context: {} };

/** Our tools return plain promises; the SDK's execute type also allows streams of preliminary results. */
async function settle<T>(result: T | PromiseLike<T> | AsyncIterable<T> | undefined): Promise<T> {
  return (await result) as T;
}

/** A manage_memory call that must apply (these tests run in the default review mode, on facts never deleted). */
async function manage(ctx: MemoryContext, input: ManageMemoryInput, options = {}): Promise<AppliedMemoryOutput> {
  const output = await settle(createMemoryTools(ctx, options).manage_memory.execute?.(input, callOptions));
  if (output.action === "proposed") throw new Error(`held for review: ${output.note}`);
  return output;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

describeEachDatabase("memory tools", (use) => {
  const agentContext = async () =>
    contextFor(use(), await createUser(use()), {
      actor: { type: "user", id: "ignored" },
      provenance: { threadId: "thread-9", messageId: "msg-3" },
    });

  it("creates, updates and deletes through tool.execute as actor agent with the context's provenance", async () => {
    const ctx = await agentContext();
    const created = await manage(ctx, { action: "create", content: "The user prefers tabs" }, { agentId: "offline" });
    expect(created).toMatchObject({ action: "created", text: "The user prefers tabs", version: 1 });
    const id = created.id;
    expect(await manage(ctx, { action: "update", id, content: "The user prefers spaces" })).toMatchObject({
      action: "updated",
      version: 2,
    });
    expect(await manage(ctx, { action: "delete", id })).toMatchObject({ action: "deleted", version: 3 });

    const history = await memoryHistory(ctx, id);
    expect(history.map((v) => [v.op, v.actor.type])).toEqual([
      ["create", "agent"],
      ["update", "agent"],
      ["delete", "agent"],
    ]);
    expect(history[0]?.actor.id).toBe("offline");
    expect(history[0]?.source).toEqual({ type: "chat", threadId: "thread-9", messageId: "msg-3" });
  });

  it("returns an error for an id outside the tool's namespace and writes nothing", async () => {
    const ctx = await agentContext();
    const stranger = contextFor(use(), await createUser(use()));
    const foreign = await createMemory(stranger, { content: "someone else's fact" });
    const elsewhere = await createMemory(ctx, { content: "a note outside the tool namespace", namespace: ["notes"] });
    const options = { namespace: ["memories"] };

    for (const id of [foreign.id, elsewhere.id, crypto.randomUUID(), "not-an-id"]) {
      await expect(manage(ctx, { action: "update", id, content: "overwritten" }, options)).rejects.toThrow(/No memory/);
      await expect(manage(ctx, { action: "delete", id }, options)).rejects.toThrow(/No memory/);
    }
    expect((await getMemory(stranger, foreign.id)).version).toBe(1);
    expect((await getMemory(ctx, elsewhere.id)).version).toBe(1);
  });

  it("reports a foreign id to the model as a tool error inside generateText, without creating anything", async () => {
    const ctx = await agentContext();
    const stranger = contextFor(use(), await createUser(use()));
    const foreign = await createMemory(stranger, { content: "not yours" });
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [
            {
              type: "tool-call",
              toolCallId: "c1",
              toolName: "manage_memory",
              input: JSON.stringify({ action: "update", id: foreign.id, content: "mine now" }),
            },
          ],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        },
        {
          content: [{ type: "text", text: "ok" }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        },
      ],
    });
    const result = await generateText({
      model,
      prompt: "update it",
      tools: createMemoryTools(ctx),
      stopWhen: isStepCount(3),
    });
    const errors = result.content.filter((part) => part.type === "tool-error");
    expect(errors).toHaveLength(1);
    expect(await settle(createMemoryTools(ctx).search_memory.execute?.({ query: "mine now" }, callOptions))).toEqual(
      [],
    );
    expect((await getMemory(stranger, foreign.id)).text).toBe("not yours");
  });

  it("narrows the input schema and the description with actionsPermitted", async () => {
    const ctx = await agentContext();
    const { manage_memory } = createMemoryTools(ctx, { actionsPermitted: ["create"] });
    const schema = manage_memory.inputSchema as Schema;
    expect((await schema.validate?.({ action: "create", content: "x" }))?.success).toBe(true);
    expect((await schema.validate?.({ action: "delete", id: "x" }))?.success).toBe(false);
    const json = JSON.stringify(schema.jsonSchema);
    expect(json).not.toContain("delete");
    expect(json).not.toContain('"id"');
    expect(manage_memory.description).not.toMatch(/update|delete|remove/i);
    await expect(
      manage(ctx, { action: "delete", id: crypto.randomUUID() }, { actionsPermitted: ["create"] }),
    ).rejects.toThrow();

    const full = createMemoryTools(ctx).manage_memory;
    expect(full.description).toMatch(/remove a memory/);
    expect((await (full.inputSchema as Schema).validate?.({ action: "delete", id: "x" }))?.success).toBe(true);
  });

  it("shows every turn's model one schema per tool and set of verbs, derived once", async () => {
    const [one, other] = [await agentContext(), await agentContext()];
    const first = createMemoryTools(one);
    const second = createMemoryTools(other);
    // A zod schema would be wrapped, and its JSON Schema derived, anew at every model call.
    expect(asSchema(first.manage_memory.inputSchema)).toBe(first.manage_memory.inputSchema);
    expect(asSchema(first.search_memory.inputSchema)).toBe(first.search_memory.inputSchema);
    expect(second.manage_memory.inputSchema).toBe(first.manage_memory.inputSchema);
    expect(second.search_memory.inputSchema).toBe(first.search_memory.inputSchema);
    expect(createMemoryTools(one, { actionsPermitted: ["create"] }).manage_memory.inputSchema).not.toBe(
      first.manage_memory.inputSchema,
    );
  });

  it("search_memory finds only within the tool's namespace", async () => {
    const ctx = await agentContext();
    await manage(ctx, { action: "create", content: "The user drinks oolong tea" }, { namespace: ["memories"] });
    await createMemory(ctx, { content: "tea notes outside", namespace: ["elsewhere"] });
    const hits = await settle(
      createMemoryTools(ctx, { namespace: ["memories"] }).search_memory.execute?.(
        { query: "what tea do I like?" },
        callOptions,
      ),
    );
    expect(hits.map((hit) => hit.text)).toEqual(["The user drinks oolong tea"]);
  });

  it("answers with the one model-facing memory shape: a write's memory and each search hit", async () => {
    const ctx = await agentContext();
    const created = await manage(
      ctx,
      { action: "create", content: "The user lives in Porto", validFrom: "2025-03-01" },
      { namespace: ["memories"] },
    );
    expect(manageMemoryOutput.parse(created)).toEqual({
      action: "created",
      id: created.id,
      text: "The user lives in Porto",
      kind: "memory",
      namespace: ["memories"],
      updatedAt: expect.any(String),
      validFrom: "2025-03-01T00:00:00.000Z",
      version: 1,
    });
    const hits = await settle(
      createMemoryTools(ctx, { namespace: ["memories"] }).search_memory.execute?.(
        { query: "where does the user live?" },
        callOptions,
      ),
    );
    expect(hits.map((hit) => memoryHit.parse(hit))).toEqual([
      {
        id: created.id,
        text: "The user lives in Porto",
        kind: "memory",
        namespace: ["memories"],
        updatedAt: created.updatedAt,
        validFrom: "2025-03-01T00:00:00.000Z",
        score: expect.any(Number),
        confidence: expect.any(Number),
      },
    ]);
    expect(hits[0]).toEqual({
      ...toModelMemory(await getMemory(ctx, created.id)),
      score: hits[0]!.score,
      confidence: hits[0]!.confidence,
    });
  });

  it("raises NamespaceTemplateError while wiring when the template names a missing key", async () => {
    const ctx = await agentContext();
    expect(() => createMemoryTools(ctx, { namespace: ["orgs", "{orgId}"] })).toThrow(NamespaceTemplateError);
    const tools = createMemoryTools(ctx, { namespace: ["orgs", "{orgId}"], namespaceValues: { orgId: "acme" } });
    const created = await settle(
      tools.manage_memory.execute?.({ action: "create", content: "acme fact" }, callOptions),
    );
    expect(created.action).toBe("created");
    expect((await getMemory(ctx, created.id as string)).namespace).toEqual(["orgs", "acme"]);
  });
});

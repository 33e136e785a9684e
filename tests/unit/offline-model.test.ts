import { generateText, isStepCount, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readIntent, thirdPerson } from "@/lib/ai/offline/intent";
import { OfflineLanguageModel } from "@/lib/ai/offline/model";
import { createModelRegistry, languageModel } from "@/lib/ai/registry";

describe("offline intent rules", () => {
  it.each([
    ["Remember that I prefer dark mode", { type: "save", content: "User prefers dark mode" }],
    ["I prefer tabs over spaces.", { type: "save", content: "User prefers tabs over spaces" }],
    ["My name is Ada", { type: "save", content: "User's name is Ada" }],
    ["From now on, answer in French", { type: "save", content: "From now on, answer in French" }],
    ["Forget that I prefer dark mode", { type: "forget", query: "I prefer dark mode" }],
    ["What are my display preferences?", { type: "ask", query: "What are my display preferences" }],
    ["hello", { type: "chat" }],
  ])("%s", (message, intent) => {
    expect(readIntent(message)).toEqual(intent);
  });

  it("rewrites first person into a statement about the user", () => {
    expect(thirdPerson("I am allergic to nuts")).toBe("User is allergic to nuts");
    expect(thirdPerson("I watch films with my sister")).toBe("User watches films with their sister");
    expect(thirdPerson("I don't drink coffee")).toBe("User doesn't drink coffee");
  });
});

/** Tools with the names and output shapes of lib/memory's, backed by an array, to drive the model's steps. */
function fakeMemoryTools() {
  const saved: Array<{ id: string; text: string }> = [];
  const manage_memory = tool({
    description: "Create, update or delete a memory",
    inputSchema: z.object({
      action: z.enum(["create", "update", "delete"]),
      content: z.string().optional(),
      id: z.string().optional(),
    }),
    execute: async ({ action, content, id }) => {
      if (action === "create") {
        const memory = { id: `m${saved.length + 1}`, text: content ?? "" };
        saved.push(memory);
        return { action: "created", id: memory.id, content: memory.text, version: 1 };
      }
      const index = saved.findIndex((m) => m.id === id);
      if (index < 0) throw new Error("No memory with that id");
      const [removed] = saved.splice(index, 1);
      return { action: "deleted", id: removed!.id, content: removed!.text, version: 2 };
    },
  });
  const search_memory = tool({
    description: "Search memories",
    inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
    execute: async ({ query }) => {
      const words = query.toLowerCase().split(/\W+/);
      const hits = saved.filter((m) => words.some((w) => w.length > 3 && m.text.toLowerCase().includes(w.slice(0, 5))));
      return hits.map((memory) => ({ id: memory.id, kind: "memory", content: memory.text, score: 1 }));
    },
  });
  return { saved, tools: { manage_memory, search_memory } };
}

describe("OfflineLanguageModel", () => {
  it("saves, answers from search results, and forgets, over several tool steps", async () => {
    const model = new OfflineLanguageModel();
    const { saved, tools } = fakeMemoryTools();
    const run = (prompt: string) => generateText({ model, tools, prompt, stopWhen: isStepCount(5) });

    const save = await run("Remember that I prefer dark mode");
    expect(saved).toEqual([{ id: "m1", text: "User prefers dark mode" }]);
    expect(save.text).toBe("Got it. I'll remember: User prefers dark mode.");

    const ask = await run("What do I prefer for display mode?");
    expect(ask.steps).toHaveLength(2);
    expect(ask.text).toContain("User prefers dark mode");

    const forget = await run("Forget that I prefer dark mode");
    expect(forget.steps).toHaveLength(3);
    expect(saved).toEqual([]);
    expect(forget.text).toBe("Done. I've forgotten: User prefers dark mode.");
  });

  it("streams text deltas and tool calls through streamText", async () => {
    const { tools } = fakeMemoryTools();
    const result = streamText({
      model: new OfflineLanguageModel(),
      tools,
      prompt: "My name is Ada",
      stopWhen: isStepCount(3),
    });
    const types = new Set<string>();
    for await (const part of result.stream) types.add(part.type);
    expect([...types]).toEqual(expect.arrayContaining(["tool-input-start", "tool-call", "tool-result", "text-delta"]));
    expect(await result.text).toBe("Got it. I'll remember: User's name is Ada.");
  });

  it("reports tool errors instead of pretending", async () => {
    const { tools } = fakeMemoryTools();
    const failing = {
      ...tools,
      manage_memory: tool({
        inputSchema: z.object({ action: z.string(), content: z.string().optional() }),
        execute: async (): Promise<string> => {
          throw new Error("database unavailable");
        },
      }),
    };
    const result = await generateText({
      model: new OfflineLanguageModel(),
      tools: failing,
      prompt: "Remember that I like tea",
      stopWhen: isStepCount(3),
    });
    expect(result.text).toBe("I couldn't save that: database unavailable");
  });

  it("is reachable through the provider registry as `offline`", () => {
    const model = languageModel(createModelRegistry({}), "offline");
    expect(model.provider).toBe("offline");
  });
});

import { MockLanguageModelV4 } from "ai/test";
import { afterEach, expect, it, vi } from "vitest";
import { createModelRegistry, languageModel } from "@/lib/ai/registry";
import { loadMessages } from "@/lib/chat/threads";
import { startChatTurn } from "@/lib/chat/turn";
import type { ChatMessage } from "@/lib/chat/types";
import { parseConfig } from "@/lib/config";
import type { MemoryContext } from "@/lib/memory/core";
import { runExtraction } from "@/lib/memory/extraction";
import { bindingFor, contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { type ProviderStub, type StubScript, startProviderStub } from "../support/provider-stubs";
import { finalMessage } from "./support";

/*
 * How a chat turn ends when the provider misbehaves, over real HTTP: the app's registry pointed at a stub of the
 * OpenAI chat-completions wire format (the openai-compatible package), with MODEL_TIMEOUT_MS at 300 ms.
 */

const stubs: ProviderStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

async function provider(script: StubScript) {
  const stub = await startProviderStub("openai-chat", script);
  stubs.push(stub);
  const registry = createModelRegistry(
    parseConfig({ OPENAI_COMPATIBLE_BASE_URL: stub.baseURL, MODEL_TIMEOUT_MS: "300" }),
  );
  return { stub, model: languageModel(registry, "openai-compatible:stub-model") };
}

const ask = (threadId: string, id: string, text: string) => ({
  id: threadId,
  trigger: "submit-message" as const,
  message: { id, role: "user" as const, parts: [{ type: "text" as const, text }] },
});

/** Reads the turn's stream to its end: the message the client shows, and the error text it was sent, if any. */
async function outcomeOf(response: Response): Promise<{ error?: string }> {
  try {
    await finalMessage(response);
    return {};
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const textOf = (message: ChatMessage | undefined) =>
  message?.parts.map((part) => (part.type === "text" ? part.text : "")).join("") ?? "";

describeEachDatabase("chat turns when the provider fails", (use) => {
  async function setup() {
    const database = use();
    const userId = await createUser(database);
    const memory = contextFor(database, userId);
    const stored = () => loadMessages(bindingFor(database, userId), thread);
    const thread = `faults-${userId.slice(0, 8)}`;
    return { database, userId, memory, stored, thread };
  }

  async function turn(memory: MemoryContext, model: Parameters<typeof startChatTurn>[0]["model"], request: object) {
    const onAnswerSaved = vi.fn(async () => {});
    const started = await startChatTurn(
      { memory, model, modelId: "openai-compatible:stub-model", contextTokens: 8_000, onAnswerSaved },
      request as Parameters<typeof startChatTurn>[1],
    );
    const outcome = await outcomeOf(started.response);
    return { ...outcome, onAnswerSaved };
  }

  it("a connection reset mid-answer ends with a readable error; the partial answer is stored incomplete, not extracted, and a retry replaces it", async () => {
    const { memory, stored, thread } = await setup();
    const { model } = await provider([
      { text: "Your sister lives in", cut: {} },
      { text: "Your sister lives in Lisbon." },
    ]);

    const cut = await turn(memory, model, ask(thread, "u1", "Where does my sister live?"));
    expect(cut.error).toBe("The connection to the model provider broke off before the answer was complete; try again.");
    await vi.waitFor(async () => expect(await stored()).toHaveLength(2));
    const [, partial] = await stored();
    expect(textOf(partial)).toBe("Your sister lives in");
    expect(partial!.metadata).toMatchObject({ incomplete: true, failure: cut.error });
    expect(cut.onAnswerSaved).not.toHaveBeenCalled();

    // The background job the chat schedules reads answered exchanges only: a broken-off answer is none.
    const manager = new MockLanguageModelV4({ doGenerate: async () => Promise.reject(new Error("not called")) });
    const skipped = await runExtraction(
      { ctx: memory, model: manager, modelId: "mock" },
      { threadId: thread, jobId: `job-${thread}`, finalAttempt: true, answeredOnly: true },
    );
    expect(skipped).toEqual({ status: "skipped", reason: "the newest message is not answered yet" });
    expect(manager.doGenerateCalls).toHaveLength(0);

    const retried = await turn(memory, model, { id: thread, trigger: "regenerate-message" });
    expect(retried.error).toBeUndefined();
    await vi.waitFor(() => expect(retried.onAnswerSaved).toHaveBeenCalledTimes(1));
    const after = await stored();
    expect(after.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(textOf(after[1])).toBe("Your sister lives in Lisbon.");
    expect(after[1]!.metadata?.incomplete).toBeUndefined();
  });

  it("a provider that sends headers and then nothing fails after MODEL_TIMEOUT_MS with a clear error", async () => {
    const { memory, stored, thread } = await setup();
    const { stub, model } = await provider([{ text: "never arrives", stall: { ms: "forever" } }]);

    const stalled = await turn(memory, model, ask(thread, "u1", "Hello?"));
    expect(stalled.error).toBe("The model sent nothing for 0.3 s, so the request was stopped; try again.");
    expect(stub.requests).toHaveLength(1);
    expect((await stored()).map((message) => message.id)).toEqual(["u1"]);
  });

  it("silence after the first words: the idle timeout fires mid-stream and the words are kept as incomplete", async () => {
    const { memory, stored, thread } = await setup();
    const { model } = await provider([{ text: "Let me think about that", stall: { ms: "forever", afterEvents: 2 } }]);

    const stalled = await turn(memory, model, ask(thread, "u1", "What should I cook?"));
    expect(stalled.error).toBe("The model sent nothing for 0.3 s, so the request was stopped; try again.");
    await vi.waitFor(async () => expect(await stored()).toHaveLength(2));
    const [, partial] = await stored();
    expect(textOf(partial)).toBe("Let ");
    expect(partial!.metadata).toMatchObject({ incomplete: true, failure: stalled.error });
  });

  it("a content filter that blocks the answer is told in words, and stored as the answer", async () => {
    const { memory, stored, thread } = await setup();
    const { model } = await provider([{ text: "", finishReason: "content_filter" }]);

    const filtered = await turn(memory, model, ask(thread, "u1", "Something disallowed"));
    expect(filtered.error).toBeUndefined();
    await vi.waitFor(() => expect(filtered.onAnswerSaved).toHaveBeenCalledTimes(1));
    const [, answer] = await stored();
    expect(textOf(answer)).toBe("The model stopped without an answer: the provider's content filter blocked it.");
  });

  it("running out of steps while calling tools says so instead of leaving only tool chips", async () => {
    const { memory, stored, thread } = await setup();
    const { stub, model } = await provider(() => ({
      toolCalls: [{ name: "search_memory", arguments: { query: "sister" } }],
    }));

    const looped = await turn(memory, model, ask(thread, "u1", "Tell me about my sister"));
    expect(looped.error).toBeUndefined();
    expect(stub.requests).toHaveLength(5);
    await vi.waitFor(() => expect(looped.onAnswerSaved).toHaveBeenCalledTimes(1));
    const [, answer] = await stored();
    expect(answer!.parts.filter((part) => part.type === "tool-search_memory")).toHaveLength(5);
    expect(textOf(answer)).toMatch(/^I ran out of steps before answering: /);
  });

  it.each([
    [
      "429 (after the SDK's retries)",
      [429, 429, 429],
      "The model provider is rate-limiting requests; try again in a moment.",
    ],
    ["401", [401], "The model provider rejected the server's API key (HTTP 401); the operator needs to check it."],
    [
      "503 (after the SDK's retries)",
      [503, 503, 503],
      "The model provider had a server error (HTTP 503); try again shortly.",
    ],
  ])("a %s reads as the reason, never as an SDK class name", async (_label, statuses, expected) => {
    const { memory, thread } = await setup();
    const { model } = await provider(statuses.map((status) => ({ error: status, retryAfter: "0" })));

    const failed = await turn(memory, model, ask(thread, "u1", "Hi"));
    expect(failed.error).toBe(expected);
    expect(failed.error).not.toMatch(/AI_|Error/);
  });
});

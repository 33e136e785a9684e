import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { type LanguageModel, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, expect, it, vi } from "vitest";
import { idleTimeoutMiddleware } from "@/lib/ai/idle-timeout";
import { createModelRegistry, languageModel } from "@/lib/ai/registry";
import { loadMessages } from "@/lib/chat/threads";
import { startChatTurn } from "@/lib/chat/turn";
import type { ChatMessage } from "@/lib/chat/types";
import { parseConfig } from "@/lib/config";
import type { MemoryContext } from "@/lib/memory/core";
import { runExtraction } from "@/lib/memory/extraction";
import { bindingFor, contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import {
  type ProviderStub,
  responseFailedEvent,
  type StubScript,
  type StubStreamError,
  startProviderStub,
  type WireFormatName,
} from "../support/provider-stubs";
import { finalMessage } from "./support";

/** The answer is saved off the stream's path: a loaded machine may take seconds to get to it (vi.waitFor waits 1 s). */
const SAVED = { timeout: 15_000 };

/*
 * How a chat turn ends when the provider misbehaves, over real HTTP: the app's registry pointed at a stub of the
 * OpenAI chat-completions wire format (the openai-compatible package), with MODEL_TIMEOUT_MS at 300 ms where a stall is
 * what a test checks and 5 s elsewhere (a loaded machine took over 300 ms to a cut answer's first byte); for errors
 * reported inside a stream, the hosted providers' packages too, behind the registry's idle timeout.
 */

const stubs: ProviderStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

async function provider(script: StubScript, timeoutMs = 5_000) {
  const stub = await startProviderStub("openai-chat", script);
  stubs.push(stub);
  const registry = createModelRegistry(
    parseConfig({ OPENAI_COMPATIBLE_BASE_URL: stub.baseURL, MODEL_TIMEOUT_MS: String(timeoutMs) }),
  );
  return { stub, model: languageModel(registry, "openai-compatible:stub-model") };
}

/** A hosted provider's package pointed at a stub of its wire format, wrapped as the registry wraps every model. */
async function hostedProvider(format: WireFormatName, create: (baseURL: string) => LanguageModel, script: StubScript) {
  const stub = await startProviderStub(format, script);
  stubs.push(stub);
  const model = create(stub.baseURL) as LanguageModelV4;
  return { stub, model: wrapLanguageModel({ model, middleware: idleTimeoutMiddleware(2_000) }) };
}

const apiKey = "test-key";
const hosted = {
  "openai-compatible": (script: StubScript) => provider(script),
  "OpenAI Responses": (script: StubScript) =>
    hostedProvider("openai-responses", (baseURL) => createOpenAI({ baseURL, apiKey })("gpt-5-mini"), script),
  "OpenAI Chat Completions": (script: StubScript) =>
    hostedProvider("openai-chat", (baseURL) => createOpenAI({ baseURL, apiKey }).chat("gpt-5-mini"), script),
  Anthropic: (script: StubScript) =>
    hostedProvider("anthropic", (baseURL) => createAnthropic({ baseURL, apiKey })("claude-sonnet-4-6"), script),
  Google: (script: StubScript) =>
    hostedProvider("google", (baseURL) => createGoogle({ baseURL, apiKey })("gemini-2.5-flash"), script),
};

/** Each provider's own way of failing an answer it has begun, with the words the user must read. */
const reportedMidAnswer: Array<[keyof typeof hosted, StubStreamError, string]> = [
  ["openai-compatible", { message: "upstream model overloaded", type: "server_error" }, "upstream model overloaded"],
  ["OpenAI Responses", { message: "upstream model overloaded", code: "server_error" }, "upstream model overloaded"],
  [
    "OpenAI Responses",
    {
      message: "The server had an error while processing your request.",
      events: [responseFailedEvent("The server had an error while processing your request.")],
    },
    "The server had an error while processing your request.",
  ],
  ["OpenAI Chat Completions", { message: "upstream model overloaded" }, "upstream model overloaded"],
  ["Anthropic", { message: "Overloaded", type: "overloaded_error" }, "Overloaded"],
  [
    "Google",
    { message: "The model is overloaded. Please try again later.", type: "UNAVAILABLE", code: "503" },
    "The model is overloaded. Please try again later.",
  ],
];

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
    await vi.waitFor(async () => expect(await stored()).toHaveLength(2), SAVED);
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
    await vi.waitFor(() => expect(retried.onAnswerSaved).toHaveBeenCalledTimes(1), SAVED);
    const after = await stored();
    expect(after.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(textOf(after[1])).toBe("Your sister lives in Lisbon.");
    expect(after[1]!.metadata?.incomplete).toBeUndefined();
  });

  it("a provider that sends headers and then nothing fails after MODEL_TIMEOUT_MS with a clear error", async () => {
    const { memory, stored, thread } = await setup();
    const { stub, model } = await provider([{ text: "never arrives", stall: { ms: "forever" } }], 300);

    const stalled = await turn(memory, model, ask(thread, "u1", "Hello?"));
    expect(stalled.error).toBe("The model sent nothing for 0.3 s, so the request was stopped; try again.");
    expect(stub.requests).toHaveLength(1);
    expect((await stored()).map((message) => message.id)).toEqual(["u1"]);
  });

  it("silence after the first words: the idle timeout fires mid-stream and the words are kept as incomplete", async () => {
    const { memory, stored, thread } = await setup();
    const { model } = await provider(
      [{ text: "Let me think about that", stall: { ms: "forever", afterEvents: 2 } }],
      300,
    );

    const stalled = await turn(memory, model, ask(thread, "u1", "What should I cook?"));
    expect(stalled.error).toBe("The model sent nothing for 0.3 s, so the request was stopped; try again.");
    await vi.waitFor(async () => expect(await stored()).toHaveLength(2), SAVED);
    const [, partial] = await stored();
    expect(textOf(partial)).toBe("Let ");
    expect(partial!.metadata).toMatchObject({ incomplete: true, failure: stalled.error });
  });

  it("a content filter that blocks the answer is told in words, and stored as the answer", async () => {
    const { memory, stored, thread } = await setup();
    const { model } = await provider([{ text: "", finishReason: "content_filter" }]);

    const filtered = await turn(memory, model, ask(thread, "u1", "Something disallowed"));
    expect(filtered.error).toBeUndefined();
    await vi.waitFor(() => expect(filtered.onAnswerSaved).toHaveBeenCalledTimes(1), SAVED);
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
    await vi.waitFor(() => expect(looped.onAnswerSaved).toHaveBeenCalledTimes(1), SAVED);
    const [, answer] = await stored();
    expect(answer!.parts.filter((part) => part.type === "tool-search_memory")).toHaveLength(5);
    expect(textOf(answer)).toMatch(/^I ran out of steps before answering: /);
  });

  it.each(reportedMidAnswer)(
    "%s: an error reported mid-answer reaches the user in the provider's words; the partial answer is stored incomplete with them",
    async (name, streamError, words) => {
      const { memory, stored, thread } = await setup();
      const { model } = await hosted[name]([{ text: "Your sister lives in", streamError }]);

      const failed = await turn(memory, model, ask(thread, "u1", "Where does my sister live?"));
      expect(failed.error).toContain(`"${words}"`);
      expect(failed.error).toMatch(/^The model provider reported an error: /);
      expect(failed.error).not.toMatch(/AI_|Error\b|HTTP/);
      await vi.waitFor(async () => expect(await stored()).toHaveLength(2), SAVED);
      const [, partial] = await stored();
      expect(textOf(partial)).toBe("Your sister lives in");
      expect(partial!.metadata).toMatchObject({ incomplete: true, failure: failed.error });
      expect(failed.onAnswerSaved).not.toHaveBeenCalled();
    },
  );

  it.each([
    ["Anthropic", { message: "Overloaded", type: "overloaded_error", afterEvents: 0 }, "Overloaded"],
    ["OpenAI Chat Completions", { message: "upstream model overloaded", afterEvents: 0 }, "upstream model overloaded"],
    ["openai-compatible", { message: "upstream model overloaded", afterEvents: 0 }, "upstream model overloaded"],
  ] satisfies Array<[keyof typeof hosted, StubStreamError, string]>)(
    "%s: an error event that opens the stream (a 200, so no HTTP status) is told in the provider's words",
    async (name, streamError, words) => {
      const { memory, stored, thread } = await setup();
      // The SDK retries what the package throws; the header keeps its waits short.
      const quick = { ...streamError, headers: { "retry-after-ms": "0" } };
      const { model } = await hosted[name](() => ({ text: "never sent", streamError: quick }));

      const failed = await turn(memory, model, ask(thread, "u1", "Hello?"));
      expect(failed.error).toContain(`"${words}"`);
      expect(failed.error).not.toMatch(/HTTP \d/);
      expect((await stored()).map((message) => message.id)).toEqual(["u1"]);
    },
  );

  it("a content filter reported as an error mid-answer gives the provider's reason, without a retry hint", async () => {
    const { memory, thread } = await setup();
    const reason = "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.";
    const { model } = await provider([
      { text: "Here is how", streamError: { message: reason, type: "invalid_request_error", code: "content_filter" } },
    ]);

    const filtered = await turn(memory, model, ask(thread, "u1", "Something disallowed"));
    expect(filtered.error).toBe(`The model provider reported an error: "${reason}".`);
  });

  it("a provider's message is shown on one line, bounded, with key-shaped tokens masked and no request in it", async () => {
    const { memory, thread } = await setup();
    const question = "My passport number is X1234567, where does my sister live?";
    const message = `Invalid proxy token sk-proj-abcd1234efgh5678ijkl passed.\n\n${"Upstream said: overloaded. ".repeat(40)}`;
    const { model } = await provider([{ text: "Your sister", streamError: { message } }]);

    const failed = await turn(memory, model, ask(thread, "u1", question));
    expect(failed.error).toMatch(
      /^The model provider reported an error: "Invalid proxy token \[redacted\] passed\. Upstream/,
    );
    expect(failed.error).not.toContain("sk-proj");
    expect(failed.error).not.toContain("\n");
    expect(failed.error).not.toContain("X1234567");
    expect(failed.error!.length).toBeLessThan(400);
  });

  it.each(["OpenAI Chat Completions", "Anthropic", "Google"] as const)(
    "%s: a content filter that stops the answer part-way says so after the words that arrived",
    async (name) => {
      const { memory, stored, thread } = await setup();
      const finishReason = { "OpenAI Chat Completions": "content_filter", Anthropic: "refusal", Google: "SAFETY" }[
        name
      ];
      const { model } = await hosted[name]([{ text: "Your sister lives in", finishReason }]);

      const filtered = await turn(memory, model, ask(thread, "u1", "Where does my sister live?"));
      expect(filtered.error).toBeUndefined();
      await vi.waitFor(() => expect(filtered.onAnswerSaved).toHaveBeenCalledTimes(1), SAVED);
      const [, answer] = await stored();
      expect(textOf(answer)).toBe(
        "Your sister lives inThe answer stops here: the provider's content filter blocked the rest.",
      );
    },
  );

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

import { createAnthropic } from "@ai-sdk/anthropic";
import {
  APICallError,
  generateText,
  InvalidToolInputError,
  isStepCount,
  Output,
  RetryError,
  streamText,
  tool,
  wrapLanguageModel,
} from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { idleTimeoutMiddleware, ModelTimeoutError } from "@/lib/ai/idle-timeout";
import { askManager } from "@/lib/memory/extraction/manager";
import { type ProviderStub, type StubScript, startProviderStub } from "../support/provider-stubs";
import { type ProviderCase, providerCases } from "./cases";

/**
 * What each provider package sends and how the AI SDK reacts when the provider misbehaves, recorded against local
 * stubs of the real wire formats. Later code relies on these behaviours; a package upgrade that changes one fails here.
 */

let stub: ProviderStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function start(testCase: ProviderCase, script: StubScript) {
  stub = await startProviderStub(testCase.format, script);
  return { stub, model: testCase.model(stub.baseURL) };
}

const rememberTool = (execute: (input: { fact: string }) => Promise<unknown>) =>
  tool({
    description: "Store a fact about the user.",
    inputSchema: z.object({ fact: z.string() }),
    execute,
  });

/** Drains fullStream; returns the part types seen and what it threw, if anything. */
async function drain(stream: AsyncIterable<{ type: string }>) {
  const types: string[] = [];
  try {
    for await (const part of stream) types.push(part.type);
    return { types, thrown: undefined };
  } catch (error) {
    return { types, thrown: error };
  }
}

async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

/** An insert in the manager's wire shape, and the op the validator gets from it. */
const insertOp = {
  op: "insert",
  id: null,
  expectedVersion: null,
  kind: "memory",
  text: "User likes tea",
  fields: null,
  messageId: "m1",
  quote: "I like tea",
  reason: null,
};
const readInsert = {
  op: "insert",
  kind: "memory",
  content: { content: "User likes tea" },
  messageId: "m1",
  quote: "I like tea",
};

describe.each(providerCases)("$name", (testCase) => {
  it("streams text in chunks, and reads usage from the provider's own usage fields", async () => {
    const { stub, model } = await start(testCase, [
      { text: "Hello there friend", usage: { inputTokens: 30, outputTokens: 4 } },
    ]);
    const result = streamText({ model, prompt: "Say hello" });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);

    expect(chunks).toEqual(["Hello ", "there ", "friend"]);
    expect(await result.usage).toMatchObject({ inputTokens: 30, outputTokens: 4, totalTokens: 34 });
    expect(await result.finishReason).toBe("stop");
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.path).toBe(testCase.streamPath);
    expect(testCase.isStreaming(stub.requests[0]!)).toBe(true);
  });

  it("parses a tool call, runs the tool and sends its result back to the model", async () => {
    const { stub, model } = await start(testCase, [
      { toolCalls: [{ name: "remember", arguments: { fact: "likes tea" } }] },
      { text: "Noted." },
    ]);
    const execute = vi.fn(async () => ({ stored: "mem-42" }));
    const result = streamText({
      model,
      prompt: "I like tea",
      tools: { remember: rememberTool(execute) },
      stopWhen: isStepCount(3),
    });

    expect(await result.text).toBe("Noted.");
    expect(execute).toHaveBeenCalledWith({ fact: "likes tea" }, expect.anything());
    expect(stub.requests).toHaveLength(2);
    expect(testCase.toolNamesOf(stub.requests[0]!.body)).toEqual(["remember"]);
    expect(JSON.stringify(stub.requests[1]!.body)).toContain("mem-42");
  });

  it("turns tool arguments that are not JSON into an invalid tool call: the tool does not run, the model is told", async () => {
    const { stub, model } = await start(testCase, [
      { toolCalls: [{ name: "remember", rawArguments: '{"fact": "likes tea"' }] },
      { text: "Sorry." },
    ]);
    const execute = vi.fn(async () => ({ stored: "never" }));
    const result = streamText({
      model,
      prompt: "I like tea",
      tools: { remember: rememberTool(execute) },
      stopWhen: isStepCount(3),
    });
    const calls: Array<{ invalid?: boolean; error?: unknown; input: unknown }> = [];
    let toolErrors = 0;
    for await (const part of result.fullStream) {
      if (part.type === "tool-call") calls.push(part);
      if (part.type === "tool-error") toolErrors++;
    }

    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ invalid: true, input: '{"fact": "likes tea"' });
    expect(InvalidToolInputError.isInstance(calls[0]!.error)).toBe(true);
    expect(toolErrors).toBe(1);
    expect(execute).not.toHaveBeenCalled();
    expect(await result.text).toBe("Sorry.");
    expect(stub.requests).toHaveLength(2);
  });

  it("parses structured output, and sends the schema where this provider expects it", async () => {
    const { stub, model } = await start(testCase, [
      { json: '{"name":"Ana","age":3}', usage: { inputTokens: 20, outputTokens: 9 } },
    ]);
    const result = await generateText({
      model,
      prompt: "Who?",
      output: Output.object({ schema: z.object({ name: z.string(), age: z.number() }) }),
    });

    expect(result.output).toEqual({ name: "Ana", age: 3 });
    expect(result.usage).toMatchObject({ inputTokens: 20, outputTokens: 9 });
    expect(testCase.isStreaming(stub.requests[0]!)).toBe(false);
    expect(testCase.schemaOf(stub.requests[0]!.body)).toMatchObject({
      type: "object",
      properties: { name: { type: "string" }, age: { type: "number" } },
      required: ["name", "age"],
    });
  });

  describe("the manager's structured output (askManager), answered with", () => {
    const valid = JSON.stringify({ ops: [insertOp] });
    it.each([
      ["valid JSON", valid, [readInsert], []],
      [
        "an extra field in one op",
        JSON.stringify({ ops: [{ ...insertOp, confidence: 0.9 }, insertOp] }),
        [readInsert],
        ['unexpected field "confidence"'],
      ],
      [
        "a wrong type (version as a string)",
        JSON.stringify({
          ops: [{ ...insertOp, op: "update", id: "m", expectedVersion: "3", reason: "r" }, insertOp],
        }),
        [readInsert],
        [expect.stringMatching(/^invalid op \("expectedVersion": /)],
      ],
      [
        "60 ops (50 are read)",
        JSON.stringify({ ops: Array.from({ length: 60 }, () => insertOp) }),
        Array.from({ length: 50 }, () => readInsert),
        Array.from({ length: 10 }, (_, i) => `over the limit of 50 ops in one answer (op ${51 + i})`),
      ],
      ["JSON in ```json fences", `\`\`\`json\n${valid}\n\`\`\``, [readInsert], []],
    ])("%s: the valid ops are read, each bad one rejected on its own", async (_label, answer, ops, reasons) => {
      const { stub, model } = await start(testCase, [{ json: answer }]);
      const { answer: read } = await askManager(model, { instructions: "Manage memory", prompt: "Extract" });

      expect(read.ops).toEqual(ops);
      expect(read.rejected.map((entry) => entry.reason)).toEqual(reasons);
      expect(stub.requests).toHaveLength(1);
    });

    it("text that is not JSON: nothing to read, and it says so", async () => {
      const { model } = await start(testCase, [{ json: "Sure! I would store that the user likes tea." }]);
      const { answer } = await askManager(model, { instructions: "Manage memory", prompt: "Extract" });
      expect(answer).toMatchObject({ ops: [], unreadable: "the answer was not JSON" });
    });
  });

  it("reports the provider's own finish value with empty text", async () => {
    const { model } = await start(testCase, [{ text: "", finishReason: testCase.finish.raw }]);
    const result = await generateText({ model, prompt: "Something disallowed" });

    expect(result.text).toBe("");
    expect(result.finishReason).toBe(testCase.finish.unified);
    expect(result.rawFinishReason).toBe(testCase.finish.raw);
  });

  describe("HTTP errors", () => {
    it("retries a 429 and a 500 (honouring Retry-After), then succeeds", async () => {
      const { stub, model } = await start(testCase, [
        { error: 429, retryAfter: "0", message: "Rate limit reached" },
        { error: 500, retryAfter: "0", message: "Internal error" },
        { text: "Third time lucky" },
      ]);
      const result = await generateText({ model, prompt: "Hi" });

      expect(result.text).toBe("Third time lucky");
      expect(stub.requests).toHaveLength(3);
    });

    it("gives up after maxRetries (default 2): three requests, then a RetryError", async () => {
      const rateLimited = { error: 429, retryAfter: "0", message: "Rate limit reached" };
      const { stub, model } = await start(testCase, [rateLimited, rateLimited, rateLimited, { text: "never sent" }]);
      const error = await rejection(generateText({ model, prompt: "Hi" }));

      expect(RetryError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: "maxRetriesExceeded" });
      expect((error as RetryError).errors).toHaveLength(3);
      expect((error as RetryError).lastError).toMatchObject({ statusCode: 429, message: "Rate limit reached" });
      expect(stub.requests).toHaveLength(3);
    });

    it("does not retry a 400, and reads the message from the provider's error body", async () => {
      const { stub, model } = await start(testCase, [
        { error: 400, message: "Unsupported parameter: 'temperature'" },
        { text: "never sent" },
      ]);
      const error = await rejection(generateText({ model, prompt: "Hi" }));

      expect(APICallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        statusCode: 400,
        isRetryable: false,
        message: "Unsupported parameter: 'temperature'",
      });
      expect(stub.requests).toHaveLength(1);
    });
  });

  describe("cut connections", () => {
    it("a stream reset after some content rejects with a retryable APICallError (status 200), and is not retried", async () => {
      const { stub, model } = await start(testCase, [{ text: "The answer is", cut: {} }, { text: "never sent" }]);
      const onError = vi.fn();
      const result = streamText({ model, prompt: "Hi", onError });
      const { types, thrown } = await drain(result.fullStream);

      expect(types).toContain("text-delta");
      expect(types).not.toContain("finish");
      expect(APICallError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({
        message: "Failed to process successful response",
        statusCode: 200,
        isRetryable: true,
        cause: { name: "TypeError", message: "terminated" },
      });
      expect(onError).not.toHaveBeenCalled();
      expect(APICallError.isInstance(await rejection(result.text))).toBe(true);
      expect(stub.requests).toHaveLength(1);
    });

    it(`a stream reset before any content is ${testCase.resetBeforeContentIsRetried ? "" : "not "}retried`, async () => {
      const { stub, model } = await start(testCase, [
        { text: "lost", cut: { afterEvents: 0 } },
        { text: "Second attempt" },
      ]);
      const result = streamText({ model, prompt: "Hi" });

      if (testCase.resetBeforeContentIsRetried) {
        expect(await result.text).toBe("Second attempt");
        expect(stub.requests).toHaveLength(2);
      } else {
        expect(await rejection(result.text)).toMatchObject({ message: "Failed to process successful response" });
        expect(stub.requests).toHaveLength(1);
      }
    });

    it("a non-streamed body cut half-way is retried by generateText", async () => {
      const { stub, model } = await start(testCase, [{ text: "lost", cut: {} }, { text: "Second attempt" }]);
      const result = await generateText({ model, prompt: "Hi" });

      expect(result.text).toBe("Second attempt");
      expect(stub.requests).toHaveLength(2);
    });
  });

  describe("stalls", () => {
    it("headers then silence: an AbortSignal.timeout ends the stream with an abort part; text rejects", async () => {
      const { stub, model } = await start(testCase, [{ text: "too late", stall: { ms: "forever" } }]);
      const result = streamText({ model, prompt: "Hi", abortSignal: AbortSignal.timeout(200) });
      const { types, thrown } = await drain(result.fullStream);

      expect(thrown).toBeUndefined();
      expect(types).toEqual(["start", "abort"]);
      expect(await rejection(result.text)).toMatchObject({ name: "TimeoutError" });
      expect(stub.requests).toHaveLength(1);
    });

    it("headers then silence: generateText rejects with the signal's TimeoutError, not retried", async () => {
      const { stub, model } = await start(testCase, [{ text: "too late", stall: { ms: "forever" } }]);
      const error = await rejection(generateText({ model, prompt: "Hi", abortSignal: AbortSignal.timeout(200) }));

      expect(error).toMatchObject({ name: "TimeoutError" });
      expect(stub.requests).toHaveLength(1);
    });

    it("no response at all: the `timeout` option rejects generateText with a TimeoutError", async () => {
      const { stub, model } = await start(testCase, [{ text: "too late", delayMs: 60_000 }]);
      const error = await rejection(generateText({ model, prompt: "Hi", timeout: 200 }));

      expect(error).toMatchObject({ name: "TimeoutError" });
      // Not retried. On a loaded machine the 200 ms can pass before the stub has read the request: at most one.
      expect(stub.requests.length).toBeLessThanOrEqual(1);
    });

    it(`headers then silence: timeout.firstChunkMs ${testCase.firstChunkTimeoutFires ? "fires" : "never fires (the package awaits the first event inside the call)"}`, async () => {
      const { model } = await start(testCase, [{ text: "too late", stall: { ms: "forever" } }]);
      const backstop = new AbortController();
      const timer = setTimeout(() => backstop.abort(new Error("backstop")), 1_500);
      const result = streamText({ model, prompt: "Hi", timeout: { firstChunkMs: 200 }, abortSignal: backstop.signal });
      const error = await rejection(result.text);
      clearTimeout(timer);

      if (testCase.firstChunkTimeoutFires) {
        expect(error).toMatchObject({ name: "TimeoutError", message: "First chunk timeout of 200ms exceeded" });
      } else {
        expect(error).toMatchObject({ message: "backstop" });
      }
    });

    describe("MODEL_TIMEOUT_MS (the registry's idle-timeout middleware, here at 200 ms)", () => {
      const idle = (model: ReturnType<ProviderCase["model"]>) =>
        wrapLanguageModel({
          model: model as Parameters<typeof wrapLanguageModel>[0]["model"],
          middleware: idleTimeoutMiddleware(200),
        });

      it("headers then silence: the stream fails with ModelTimeoutError, not retried", async () => {
        const { stub, model } = await start(testCase, [{ text: "too late", stall: { ms: "forever" } }, { text: "no" }]);
        const failures: unknown[] = [];
        const result = streamText({ model: idle(model), prompt: "Hi" });
        const types: string[] = [];
        let thrown: unknown;
        try {
          for await (const part of result.fullStream) {
            types.push(part.type);
            if (part.type === "error") failures.push(part.error);
          }
        } catch (error) {
          thrown = error;
        }

        // Packages that await the first event inside the call fail it (an error part); the others fail the stream.
        expect(types).not.toContain("text-delta");
        expect(thrown ?? failures[0]).toBeInstanceOf(ModelTimeoutError);
        expect(stub.requests).toHaveLength(1);
      });

      it("silence after the first text: the stream fails with ModelTimeoutError after that text", async () => {
        const { model } = await start(testCase, [
          { text: "one two three", stall: { ms: "forever", afterEvents: testCase.eventsThroughFirstText } },
        ]);
        const result = streamText({ model: idle(model), prompt: "Hi" });
        const { types, thrown } = await drain(result.fullStream);

        expect(types.filter((type) => type === "text-delta")).toHaveLength(1);
        expect(thrown).toBeInstanceOf(ModelTimeoutError);
      });

      it("a non-streamed call that gets headers and then nothing rejects with ModelTimeoutError, not retried", async () => {
        const { stub, model } = await start(testCase, [{ text: "too late", stall: { ms: "forever" } }, { text: "no" }]);
        const error = await rejection(generateText({ model: idle(model), prompt: "Hi" }));

        expect(error).toBeInstanceOf(ModelTimeoutError);
        expect(error).toMatchObject({ message: "The model sent nothing for 0.2 s" });
        expect(stub.requests).toHaveLength(1);
      });
    });

    it("silence after the first text: timeout.chunkMs aborts the stream", async () => {
      const { model } = await start(testCase, [
        { text: "one two three", stall: { ms: "forever", afterEvents: testCase.eventsThroughFirstText } },
      ]);
      const backstop = new AbortController();
      const timer = setTimeout(() => backstop.abort(new Error("backstop")), 5_000);
      const result = streamText({ model, prompt: "Hi", timeout: { chunkMs: 200 }, abortSignal: backstop.signal });
      const { types } = await drain(result.fullStream);
      const error = await rejection(result.text);
      clearTimeout(timer);

      expect(types.filter((type) => type === "text-delta")).toHaveLength(1);
      expect(types.at(-1)).toBe("abort");
      expect(error).toMatchObject({ name: "TimeoutError", message: "Chunk timeout of 200ms exceeded" });
    });
  });
});

describe("@ai-sdk/anthropic with a model without native structured output (claude-3-haiku)", () => {
  it("asks for structured output through a `json` tool it forces (tool_choice any), and parses the call's input", async () => {
    stub = await startProviderStub("anthropic", [{ json: '{"name":"Ana","age":3}' }]);
    const model = createAnthropic({ baseURL: stub.baseURL, apiKey: "test-key" })("claude-3-haiku-20240307");
    const result = await generateText({
      model,
      prompt: "Who?",
      output: Output.object({ schema: z.object({ name: z.string(), age: z.number() }) }),
    });

    expect(result.output).toEqual({ name: "Ana", age: 3 });
    expect(result.finishReason).toBe("stop");
    const body = stub.requests[0]!.body as { output_config?: unknown; tools: unknown; tool_choice: unknown };
    expect(body.output_config).toBeUndefined();
    expect(body.tools).toMatchObject([{ name: "json", input_schema: { properties: { name: { type: "string" } } } }]);
    expect(body.tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
  });
});

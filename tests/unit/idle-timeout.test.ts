import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { idleTimeoutMiddleware, ModelTimeoutError } from "@/lib/ai/idle-timeout";
import { parseConfig } from "@/lib/config";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model whose stream parts arrive when the test pushes them. */
function pushedModel() {
  let push!: (part: LanguageModelV4StreamPart) => void;
  let end!: () => void;
  const stream = new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      push = (part) => controller.enqueue(part);
      end = () => controller.close();
    },
  });
  const model = new MockLanguageModelV4({ doStream: async () => ({ stream }) });
  return {
    model: wrapLanguageModel({ model, middleware: idleTimeoutMiddleware(300) }),
    push: (p: LanguageModelV4StreamPart) => push(p),
    end: () => end(),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the idle timeout", () => {
  it("is reset by every part: a stream that keeps sending runs past the timeout in total", async () => {
    vi.useFakeTimers();
    const { model, push, end } = pushedModel();
    const result = streamText({ model, prompt: "Hi" });
    const text = result.text;
    push({ type: "stream-start", warnings: [] });
    push({ type: "text-start", id: "t" });
    for (const word of ["one ", "two ", "three ", "four"]) {
      await vi.advanceTimersByTimeAsync(250);
      push({ type: "text-delta", id: "t", delta: word });
    }
    await vi.advanceTimersByTimeAsync(250);
    push({ type: "text-end", id: "t" });
    push({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
    end();
    await vi.runAllTimersAsync();
    expect(await text).toBe("one two three four");
  });

  it("fails the stream once no part arrives for the timeout", async () => {
    vi.useFakeTimers();
    const { model, push } = pushedModel();
    const result = streamText({ model, prompt: "Hi" });
    const parts: string[] = [];
    const read = (async () => {
      try {
        for await (const part of result.fullStream) parts.push(part.type);
      } catch (error) {
        return error;
      }
    })();
    push({ type: "stream-start", warnings: [] });
    push({ type: "text-start", id: "t" });
    await vi.advanceTimersByTimeAsync(250);
    push({ type: "text-delta", id: "t", delta: "one " });
    await vi.advanceTimersByTimeAsync(300);
    const thrown = await read;
    expect(thrown).toBeInstanceOf(ModelTimeoutError);
    expect(parts.filter((type) => type === "text-delta")).toHaveLength(1);
  });
});

describe("MODEL_TIMEOUT_MS", () => {
  it.each([
    [undefined, 30_000],
    ["", 30_000],
    ["300", 300],
    [" 45000 ", 45_000],
  ])("%j → %d", (value, expected) => {
    expect(parseConfig({ MODEL_TIMEOUT_MS: value }).MODEL_TIMEOUT_MS).toBe(expected);
  });

  it.each(["1.5", "abc", "50", "600001"])("%j is refused", (value) => {
    expect(() => parseConfig({ MODEL_TIMEOUT_MS: value })).toThrow(
      `MODEL_TIMEOUT_MS must be a whole number from 100 to 600000 (got "${value}").`,
    );
  });
});

import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import type { FinishReason, LanguageModel } from "ai";
import { createModelRegistry, languageModel } from "@/lib/ai/registry";
import { parseConfig } from "@/lib/config";
import type { RecordedRequest, WireFormatName } from "../support/provider-stubs";

type Body = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: request bodies are read loosely, the way each provider shapes them.
type Loose = any;

/** One provider package pointed at a stub, and where its requests carry what the tests assert on. */
export interface ProviderCase {
  name: string;
  format: WireFormatName;
  model(baseURL: string): LanguageModel;
  /** The endpoint the package calls when streaming. */
  streamPath: string;
  isStreaming(request: RecordedRequest): boolean;
  /** The JSON schema of a structured-output request, where this provider carries it. */
  schemaOf(body: Body): unknown;
  toolNamesOf(body: Body): string[];
  /** A finish value of this provider's own, with the unified reason the SDK maps it to. */
  finish: { raw: string; unified: FinishReason };
  /** Events the stub sends up to and including the first text delta of a text reply. */
  eventsThroughFirstText: number;
  /** Recorded behaviour: does `timeout.firstChunkMs` fire when the server sends headers and then nothing? */
  firstChunkTimeoutFires: boolean;
  /** Recorded behaviour: is a stream reset before its first content event retried (maxRetries)? */
  resetBeforeContentIsRetried: boolean;
}

const apiKey = "test-key";

export const providerCases: ProviderCase[] = [
  {
    name: "@ai-sdk/openai openai(model): Responses API",
    format: "openai-responses",
    model: (baseURL) => createOpenAI({ baseURL, apiKey })("gpt-5-mini"),
    streamPath: "/v1/responses",
    isStreaming: (request) => request.body.stream === true,
    schemaOf: (body: Loose) => body.text?.format?.schema,
    toolNamesOf: (body: Loose) => body.tools.map((tool: Loose) => tool.name),
    finish: { raw: "content_filter", unified: "content-filter" },
    eventsThroughFirstText: 5,
    firstChunkTimeoutFires: false,
    resetBeforeContentIsRetried: true,
  },
  {
    name: "@ai-sdk/openai openai.chat(model): Chat Completions",
    format: "openai-chat",
    model: (baseURL) => createOpenAI({ baseURL, apiKey }).chat("gpt-5-mini"),
    streamPath: "/v1/chat/completions",
    isStreaming: (request) => request.body.stream === true,
    schemaOf: (body: Loose) => body.response_format?.json_schema?.schema,
    toolNamesOf: (body: Loose) => body.tools.map((tool: Loose) => tool.function.name),
    finish: { raw: "content_filter", unified: "content-filter" },
    eventsThroughFirstText: 2,
    firstChunkTimeoutFires: false,
    resetBeforeContentIsRetried: true,
  },
  {
    name: "@ai-sdk/openai-compatible, configured as the app's registry does (Ollama, vLLM…)",
    format: "openai-chat",
    model: (baseURL) =>
      languageModel(
        createModelRegistry(parseConfig({ OPENAI_COMPATIBLE_BASE_URL: baseURL })),
        "openai-compatible:local-model",
      ),
    streamPath: "/v1/chat/completions",
    isStreaming: (request) => request.body.stream === true,
    schemaOf: (body: Loose) => body.response_format?.json_schema?.schema,
    toolNamesOf: (body: Loose) => body.tools.map((tool: Loose) => tool.function.name),
    finish: { raw: "length", unified: "length" },
    eventsThroughFirstText: 2,
    firstChunkTimeoutFires: true,
    resetBeforeContentIsRetried: false,
  },
  {
    name: "@ai-sdk/anthropic (claude-sonnet-4-6: native structured output)",
    format: "anthropic",
    model: (baseURL) => createAnthropic({ baseURL, apiKey })("claude-sonnet-4-6"),
    streamPath: "/v1/messages",
    isStreaming: (request) => request.body.stream === true,
    schemaOf: (body: Loose) => body.output_config?.format?.schema,
    toolNamesOf: (body: Loose) => body.tools.map((tool: Loose) => tool.name),
    finish: { raw: "refusal", unified: "content-filter" },
    eventsThroughFirstText: 4,
    firstChunkTimeoutFires: false,
    resetBeforeContentIsRetried: true,
  },
  {
    name: "@ai-sdk/google (Gemini API)",
    format: "google",
    model: (baseURL) => createGoogle({ baseURL, apiKey })("gemini-2.5-flash"),
    streamPath: "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
    isStreaming: (request) => request.path.endsWith(":streamGenerateContent") && request.search === "?alt=sse",
    schemaOf: (body: Loose) => body.generationConfig?.responseJsonSchema,
    toolNamesOf: (body: Loose) =>
      body.tools.flatMap((tool: Loose) => tool.functionDeclarations.map((f: Loose) => f.name)),
    finish: { raw: "SAFETY", unified: "content-filter" },
    eventsThroughFirstText: 1,
    firstChunkTimeoutFires: true,
    resetBeforeContentIsRetried: false,
  },
];

import { anthropicFormat } from "./anthropic";
import { type StubHooks, type StubScript, startStubServer, type WireFormat } from "./core";
import { googleFormat } from "./google";
import { openaiChatFormat } from "./openai-chat";
import { openaiResponsesFormat } from "./openai-responses";

export * from "./anthropic";
export * from "./core";
export * from "./google";
export * from "./openai-chat";
export * from "./openai-responses";

export const wireFormats = {
  "openai-chat": openaiChatFormat,
  "openai-responses": openaiResponsesFormat,
  anthropic: anthropicFormat,
  google: googleFormat,
} satisfies Record<string, WireFormat>;

export type WireFormatName = keyof typeof wireFormats;

/**
 * A local HTTP server speaking one provider's wire format, answering each request with the next scripted reply.
 *
 * ```ts
 * const stub = await startProviderStub("anthropic", [
 *   { toolCalls: [{ name: "remember", arguments: { fact: "likes tea" } }] },
 *   { text: "Noted.", usage: { inputTokens: 30, outputTokens: 2 } },
 *   { error: 429, retryAfter: "0" },
 *   { text: "partial answer", cut: {} },
 * ]);
 * const model = createAnthropic({ baseURL: stub.baseURL, apiKey: "test" })("claude-sonnet-4-6");
 * // … stub.requests[0].body.tools, then stub.close()
 * ```
 */
export function startProviderStub(format: WireFormatName, script: StubScript, hooks?: StubHooks) {
  return startStubServer(wireFormats[format], script, hooks);
}

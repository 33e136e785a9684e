import type { StubReply as ProviderStubReply, RecordedRequest } from "./provider-stubs";
import { startOpenAIChatStub } from "./provider-stubs/openai-chat";

/** One scripted assistant turn: either tool calls or text, streamed as OpenAI chat-completion chunks. */
export type StubReply = (
  | { toolCalls: Array<{ name: string; arguments: unknown }> }
  | { text: string }
  | { status: number; error: string; retryAfter?: string }
) & { delayMs?: number };

export interface OpenAIStub {
  /** Base URL to give an OpenAI-compatible provider, e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  /** Parsed JSON bodies of the requests received, in order. */
  requests: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Replies in order, or a function choosing the reply for each request (its parsed body and 0-based index). */
export type StubScript = StubReply[] | ((body: Record<string, unknown>, index: number) => StubReply);

export interface StubHooks {
  /** Called as soon as a request's body is read, before any delay. */
  onRequest?: (body: Record<string, unknown>) => void;
  /** Called right after a reply has been written completely. */
  onReplied?: (body: Record<string, unknown>) => void;
}

function toProviderReply(reply: StubReply | undefined): ProviderStubReply | undefined {
  if (!reply) return undefined;
  if ("status" in reply) {
    return {
      error: reply.status,
      body: { error: { message: reply.error, type: "server_error" } },
      retryAfter: reply.retryAfter,
      delayMs: reply.delayMs,
    };
  }
  return reply;
}

/**
 * A local OpenAI-compatible server that answers POST /v1/chat/completions with the next scripted reply, streamed
 * as server-sent events the way the real API does (or as one JSON body when the request does not ask to stream).
 * A thin wrapper over the `openai-chat` format of ./provider-stubs, which also scripts cut streams, stalls and usage.
 */
export async function startOpenAIStub(script: StubScript, hooks: StubHooks = {}): Promise<OpenAIStub> {
  const requests: Array<Record<string, unknown>> = [];
  // As before, onReplied reports completed answers only, not error replies.
  const answered = new WeakSet<RecordedRequest>();
  const stub = await startOpenAIChatStub(
    (request, index) => {
      const reply = typeof script === "function" ? script(request.body, index) : script[index];
      if (reply && !("status" in reply)) answered.add(request);
      return toProviderReply(reply);
    },
    {
      onRequest: (request) => {
        requests.push(request.body);
        hooks.onRequest?.(request.body);
      },
      onReplied: (request) => {
        if (answered.has(request)) hooks.onReplied?.(request.body);
      },
    },
  );
  return { baseURL: stub.baseURL, requests, close: () => stub.close() };
}

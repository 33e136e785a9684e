import {
  argumentsText,
  chunksOf,
  piecesOf,
  type ReplyContext,
  type SseEvent,
  type StubContentReply,
  type StubHooks,
  type StubReplyOptions,
  type StubScript,
  startStubServer,
  type WireFormat,
} from "./core";

type Reply = StubContentReply & StubReplyOptions;

/** The OpenAI error body: { error: { message, type, param, code } }. */
export function openaiErrorBody(status: number, message: string) {
  const [type, code] =
    status === 429
      ? ["requests", "rate_limit_exceeded"]
      : status === 401
        ? ["invalid_request_error", "invalid_api_key"]
        : status >= 500
          ? ["server_error", null]
          : ["invalid_request_error", null];
  return { error: { message, type, param: null, code } };
}

function textOf(reply: Reply): string {
  if ("json" in reply) return reply.json;
  if ("toolCalls" in reply) return reply.text ?? "";
  return chunksOf(reply.text).join("");
}

function toolCallsOf(reply: Reply, context: ReplyContext) {
  if (!("toolCalls" in reply)) return [];
  return reply.toolCalls.map((call, index) => ({
    index,
    id: call.id ?? `call_${context.index}_${index}`,
    name: call.name,
    arguments: argumentsText(call),
  }));
}

/**
 * OpenAI Chat Completions (POST {base}/chat/completions), as sent by `openai.chat(model)` and by
 * @ai-sdk/openai-compatible: chunks of `chat.completion.chunk` ending with a finish chunk, a usage chunk (choices: [])
 * and `data: [DONE]`.
 */
export const openaiChatFormat: WireFormat = {
  basePath: "/v1",
  route(request) {
    if (request.method !== "POST" || !request.path.endsWith("/chat/completions")) return undefined;
    return { stream: request.body.stream === true, model: String(request.body.model ?? "") };
  },
  errorBody: openaiErrorBody,
  // What vLLM, LiteLLM and OpenAI itself send when generation fails mid-stream: the error body as a chunk.
  streamError: (error) => [
    {
      data: {
        error: { message: error.message, type: error.type ?? "server_error", param: null, code: error.code ?? null },
      },
    },
    { data: "[DONE]" },
  ],
  body(reply, context) {
    const calls = toolCallsOf(reply, context);
    const text = textOf(reply);
    const finish = reply.finishReason ?? (calls.length ? "tool_calls" : "stop");
    const message = {
      role: "assistant",
      content: text || (calls.length ? null : ""),
      refusal: null,
      ...(calls.length && {
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      }),
    };
    return {
      id: `chatcmpl-${context.index}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: context.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      usage: usageOf(context),
    };
  },
  events(reply, context) {
    const id = `chatcmpl-${context.index}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: unknown, finish: string | null = null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model: context.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
    const calls = toolCallsOf(reply, context);
    const events: SseEvent[] = [{ data: chunk({ role: "assistant", content: "", refusal: null }) }];
    const text =
      "json" in reply ? piecesOf(reply.json, 3) : chunksOf("toolCalls" in reply ? (reply.text ?? "") : reply.text);
    for (const piece of text) events.push({ data: chunk({ content: piece }) });
    for (const call of calls) {
      events.push({
        data: chunk({
          tool_calls: [
            { index: call.index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
          ],
        }),
      });
      for (const piece of piecesOf(call.arguments)) {
        events.push({ data: chunk({ tool_calls: [{ index: call.index, function: { arguments: piece } }] }) });
      }
    }
    const finish = reply.finishReason ?? (calls.length ? "tool_calls" : "stop");
    events.push({ data: chunk({}, finish), final: true });
    events.push({
      data: {
        id,
        object: "chat.completion.chunk",
        created,
        model: context.model,
        choices: [],
        usage: usageOf(context),
      },
      final: true,
    });
    events.push({ data: "[DONE]", final: true });
    return events;
  },
};

function usageOf({ usage }: ReplyContext) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

export function startOpenAIChatStub(script: StubScript, hooks?: StubHooks) {
  return startStubServer(openaiChatFormat, script, hooks);
}

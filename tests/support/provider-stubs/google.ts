import {
  argumentsValue,
  chunksOf,
  piecesOf,
  type ReplyContext,
  type SseEvent,
  type StubContentReply,
  type StubErrorReply,
  type StubHooks,
  type StubReplyOptions,
  type StubScript,
  startStubServer,
  type WireFormat,
} from "./core";

type Reply = StubContentReply & StubReplyOptions;

const STATUSES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

/** The Google error body: { error: { code, message, status, details? } } (RetryInfo in details on a 429). */
export function googleErrorBody(status: number, message: string, reply?: StubErrorReply) {
  const details =
    reply?.retryAfter !== undefined
      ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${reply.retryAfter}s` }]
      : undefined;
  return { error: { code: status, message, status: STATUSES[status] ?? "UNKNOWN", ...(details && { details }) } };
}

const ROUTE = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function textPieces(reply: Reply): string[] {
  if ("json" in reply) return piecesOf(reply.json, 3);
  return chunksOf("toolCalls" in reply ? (reply.text ?? "") : reply.text);
}

function functionCallParts(reply: Reply) {
  if (!("toolCalls" in reply)) return [];
  return reply.toolCalls.map((call) => ({
    functionCall: { ...(call.id && { id: call.id }), name: call.name, args: argumentsValue(call) },
  }));
}

function finishOf(reply: Reply) {
  const finishReason = reply.finishReason ?? "STOP";
  const blocked = ["SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "RECITATION"].includes(finishReason);
  return {
    finishReason,
    ...(blocked && {
      safetyRatings: [{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true }],
    }),
  };
}

function usageOf({ usage }: ReplyContext) {
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
}

/**
 * Gemini API (POST {base}/models/{model}:generateContent, and :streamGenerateContent?alt=sse): candidates with
 * content.parts ({ text } or { functionCall: { name, args } }), finishReason and usageMetadata.
 */
export const googleFormat: WireFormat = {
  basePath: "/v1beta",
  route(request) {
    const match = ROUTE.exec(request.path);
    if (request.method !== "POST" || !match) return undefined;
    return { stream: match[2] === "streamGenerateContent", model: match[1] ?? "" };
  },
  errorBody: googleErrorBody,
  streamError: (error) => [
    { data: { error: { code: Number(error.code ?? 500), message: error.message, status: error.type ?? "INTERNAL" } } },
  ],
  body(reply, context) {
    const text = textPieces(reply).join("");
    const parts = [...(text ? [{ text }] : []), ...functionCallParts(reply)];
    return {
      candidates: [{ ...(parts.length && { content: { role: "model", parts } }), ...finishOf(reply), index: 0 }],
      usageMetadata: usageOf(context),
      modelVersion: context.model,
      responseId: `resp_${context.index}`,
    };
  },
  events(reply, context) {
    const chunk = (candidate: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      candidates: [{ ...candidate, index: 0 }],
      ...extra,
      modelVersion: context.model,
      responseId: `resp_${context.index}`,
    });
    const events: SseEvent[] = textPieces(reply).map((text) => ({
      data: chunk({ content: { role: "model", parts: [{ text }] } }),
    }));
    const calls = functionCallParts(reply);
    if (calls.length) events.push({ data: chunk({ content: { role: "model", parts: calls } }) });
    events.push({ data: chunk(finishOf(reply), { usageMetadata: usageOf(context) }), final: true });
    return events;
  },
  frame(event) {
    return `data: ${JSON.stringify(event.data)}\r\n\r\n`;
  },
};

export function startGoogleStub(script: StubScript, hooks?: StubHooks) {
  return startStubServer(googleFormat, script, hooks);
}

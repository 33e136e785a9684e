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
  type StubStreamError,
  startStubServer,
  type WireFormat,
} from "./core";
import { openaiErrorBody } from "./openai-chat";

type Reply = StubContentReply & StubReplyOptions;

/** Finish values that OpenAI reports as an incomplete response (incomplete_details.reason) rather than completed. */
const INCOMPLETE_REASONS = new Set(["max_output_tokens", "content_filter"]);

function pieces(reply: Reply): string[] {
  if ("json" in reply) return piecesOf(reply.json, 3);
  return chunksOf("toolCalls" in reply ? (reply.text ?? "") : reply.text);
}

/** The output items of a reply, as they look once complete. */
function outputOf(reply: Reply, context: ReplyContext) {
  const items: Array<Record<string, unknown>> = [];
  const text = pieces(reply).join("");
  if (text) {
    items.push({
      type: "message",
      id: `msg_${context.index}`,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [], logprobs: [] }],
    });
  }
  if ("toolCalls" in reply) {
    reply.toolCalls.forEach((call, index) => {
      items.push({
        type: "function_call",
        id: `fc_${context.index}_${index}`,
        call_id: call.id ?? `call_${context.index}_${index}`,
        name: call.name,
        arguments: argumentsText(call),
        status: "completed",
      });
    });
  }
  return items;
}

function responseOf(reply: Reply, context: ReplyContext, output: unknown[], done: boolean) {
  const incomplete = reply.finishReason !== undefined && INCOMPLETE_REASONS.has(reply.finishReason);
  return {
    id: `resp_${context.index}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: context.model,
    status: done ? (incomplete ? "incomplete" : "completed") : "in_progress",
    output,
    incomplete_details: done && incomplete ? { reason: reply.finishReason } : null,
    error: null,
    usage: done
      ? {
          input_tokens: context.usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: context.usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: context.usage.inputTokens + context.usage.outputTokens,
        }
      : null,
  };
}

/** The Responses API's `error` event (ResponseErrorEvent: code, message and param at the top level). */
export function responsesErrorEvent(error: StubStreamError, sequence: number): SseEvent {
  return {
    event: "error",
    data: {
      type: "error",
      sequence_number: sequence,
      code: error.code ?? error.type ?? "server_error",
      message: error.message,
      param: null,
    },
  };
}

/** A `response.failed` event: the response ends with status "failed" and its `error`. */
export function responseFailedEvent(message: string, code = "server_error", sequence = 1_000): SseEvent {
  return {
    event: "response.failed",
    data: {
      type: "response.failed",
      sequence_number: sequence,
      response: {
        id: "resp_failed",
        object: "response",
        status: "failed",
        output: [],
        error: { code, message },
        incomplete_details: null,
        usage: null,
      },
    },
  };
}

/**
 * OpenAI Responses API (POST {base}/responses), which `openai(model)` of @ai-sdk/openai v4 uses by default: typed
 * events `response.created` … `response.output_text.delta` … `response.completed` (or `response.incomplete`).
 */
export const openaiResponsesFormat: WireFormat = {
  basePath: "/v1",
  route(request) {
    if (request.method !== "POST" || !request.path.endsWith("/responses")) return undefined;
    return { stream: request.body.stream === true, model: String(request.body.model ?? "") };
  },
  errorBody: openaiErrorBody,
  streamError: (error, context) => [responsesErrorEvent(error, 1_000 + context.index)],
  body(reply, context) {
    return responseOf(reply, context, outputOf(reply, context), true);
  },
  events(reply, context) {
    let sequence = 0;
    const events: SseEvent[] = [];
    const push = (type: string, data: Record<string, unknown>, final = false) =>
      events.push({ event: type, data: { type, sequence_number: sequence++, ...data }, final });
    push("response.created", { response: responseOf(reply, context, [], false) });
    push("response.in_progress", { response: responseOf(reply, context, [], false) });
    const output = outputOf(reply, context);
    output.forEach((item, outputIndex) => {
      const id = item.id as string;
      if (item.type === "message") {
        push("response.output_item.added", {
          output_index: outputIndex,
          item: { ...item, status: "in_progress", content: [] },
        });
        push("response.content_part.added", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        });
        for (const delta of pieces(reply)) {
          push("response.output_text.delta", {
            item_id: id,
            output_index: outputIndex,
            content_index: 0,
            delta,
            logprobs: [],
          });
        }
        const [part] = item.content as Array<{ text: string }>;
        push("response.output_text.done", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          text: part?.text,
          logprobs: [],
        });
        push("response.content_part.done", { item_id: id, output_index: outputIndex, content_index: 0, part });
      } else {
        push("response.output_item.added", {
          output_index: outputIndex,
          item: { ...item, arguments: "", status: "in_progress" },
        });
        for (const delta of piecesOf(item.arguments as string)) {
          push("response.function_call_arguments.delta", { item_id: id, output_index: outputIndex, delta });
        }
        push("response.function_call_arguments.done", {
          item_id: id,
          output_index: outputIndex,
          arguments: item.arguments,
        });
      }
      push("response.output_item.done", { output_index: outputIndex, item });
    });
    const finished = responseOf(reply, context, output, true);
    push(finished.status === "incomplete" ? "response.incomplete" : "response.completed", { response: finished }, true);
    return events;
  },
};

export function startOpenAIResponsesStub(script: StubScript, hooks?: StubHooks) {
  return startStubServer(openaiResponsesFormat, script, hooks);
}

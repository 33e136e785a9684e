import {
  argumentsText,
  argumentsValue,
  chunksOf,
  piecesOf,
  type ReplyContext,
  type SseEvent,
  type StubContentReply,
  type StubHooks,
  type StubReplyOptions,
  type StubScript,
  type StubToolCall,
  startStubServer,
  type WireFormat,
} from "./core";

type Reply = StubContentReply & StubReplyOptions;

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

/** The Anthropic error body: { type: "error", error: { type, message } }. */
export function anthropicErrorBody(status: number, message: string) {
  return { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } };
}

type Block = { type: "text"; pieces: string[] } | { type: "tool_use"; id: string; call: StubToolCall };

/**
 * The content blocks of a reply. A JSON answer goes into a text block when the request asked for native structured
 * output (output_config.format), and into a call of the `json` tool when it used the JSON-tool fallback.
 */
function blocksOf(reply: Reply, context: ReplyContext): Block[] {
  const blocks: Block[] = [];
  if ("json" in reply) {
    const tools = (context.request.body.tools as Array<{ name?: string }> | undefined) ?? [];
    if (!context.request.body.output_config && tools.some((tool) => tool.name === "json")) {
      blocks.push({
        type: "tool_use",
        id: `toolu_${context.index}_json`,
        call: { name: "json", rawArguments: reply.json },
      });
    } else {
      blocks.push({ type: "text", pieces: piecesOf(reply.json, 3) });
    }
    return blocks;
  }
  const text = chunksOf("toolCalls" in reply ? (reply.text ?? "") : reply.text);
  if (text.length) blocks.push({ type: "text", pieces: text });
  if ("toolCalls" in reply) {
    reply.toolCalls.forEach((call, index) => {
      blocks.push({ type: "tool_use", id: call.id ?? `toolu_${context.index}_${index}`, call });
    });
  }
  return blocks;
}

function stopReasonOf(reply: Reply, blocks: Block[]) {
  return reply.finishReason ?? (blocks.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn");
}

/**
 * Anthropic Messages (POST {base}/messages): SSE events message_start, content_block_start/delta/stop (text_delta,
 * input_json_delta), message_delta (stop_reason, usage.output_tokens) and message_stop.
 */
export const anthropicFormat: WireFormat = {
  basePath: "/v1",
  route(request) {
    if (request.method !== "POST" || !request.path.endsWith("/messages")) return undefined;
    return { stream: request.body.stream === true, model: String(request.body.model ?? "") };
  },
  errorBody: anthropicErrorBody,
  streamError: (error) => [
    { event: "error", data: { type: "error", error: { type: error.type ?? "api_error", message: error.message } } },
  ],
  body(reply, context) {
    const blocks = blocksOf(reply, context);
    return {
      id: `msg_${context.index}`,
      type: "message",
      role: "assistant",
      model: context.model,
      content: blocks.map((block) =>
        block.type === "text"
          ? { type: "text", text: block.pieces.join("") }
          : { type: "tool_use", id: block.id, name: block.call.name, input: argumentsValue(block.call) },
      ),
      stop_reason: stopReasonOf(reply, blocks),
      stop_sequence: null,
      usage: { input_tokens: context.usage.inputTokens, output_tokens: context.usage.outputTokens },
    };
  },
  events(reply, context) {
    const blocks = blocksOf(reply, context);
    const events: SseEvent[] = [];
    const push = (type: string, data: Record<string, unknown>, final = false) =>
      events.push({ event: type, data: { type, ...data }, final });
    push("message_start", {
      message: {
        id: `msg_${context.index}`,
        type: "message",
        role: "assistant",
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: context.usage.inputTokens, output_tokens: 1 },
      },
    });
    push("ping", {});
    blocks.forEach((block, index) => {
      if (block.type === "text") {
        push("content_block_start", { index, content_block: { type: "text", text: "" } });
        for (const text of block.pieces) push("content_block_delta", { index, delta: { type: "text_delta", text } });
      } else {
        push("content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.call.name, input: {} },
        });
        for (const partial_json of piecesOf(argumentsText(block.call))) {
          push("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
        }
      }
      push("content_block_stop", { index });
    });
    push(
      "message_delta",
      {
        delta: { stop_reason: stopReasonOf(reply, blocks), stop_sequence: null },
        usage: { output_tokens: context.usage.outputTokens },
      },
      true,
    );
    push("message_stop", {}, true);
    return events;
  },
};

export function startAnthropicStub(script: StubScript, hooks?: StubHooks) {
  return startStubServer(anthropicFormat, script, hooks);
}

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted assistant turn: either tool calls or text, streamed as OpenAI chat-completion chunks. */
export type StubReply = (
  | { toolCalls: Array<{ name: string; arguments: unknown }> }
  | { text: string }
  | { status: number; error: string }
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

/**
 * A local OpenAI-compatible server that answers POST /v1/chat/completions with the next scripted reply, streamed
 * as server-sent events the way the real API does (or as one JSON body when the request does not ask to stream).
 */
export async function startOpenAIStub(script: StubScript, hooks: StubHooks = {}): Promise<OpenAIStub> {
  const requests: Array<Record<string, unknown>> = [];
  let served = 0;
  const server: Server = createServer(async (request, response) => {
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    requests.push(body);
    hooks.onRequest?.(body);
    const reply = typeof script === "function" ? script(body, served) : script[served];
    served++;
    if (reply?.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (response.destroyed) return;
    if (!reply) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "the stub has no more scripted replies" } }));
      return;
    }
    if ("status" in reply) {
      response.writeHead(reply.status, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: reply.error, type: "server_error" } }));
      return;
    }
    const id = `chatcmpl-${served}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: unknown, finish: string | null = null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const toolCalls =
      "toolCalls" in reply
        ? reply.toolCalls.map((call, index) => ({
            index,
            id: `call_${served}_${index}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          }))
        : [];
    const finish = toolCalls.length ? "tool_calls" : "stop";
    const usage = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };
    if (!body.stream) {
      const message = toolCalls.length
        ? { role: "assistant", content: null, tool_calls: toolCalls.map(({ index: _, ...call }) => call) }
        : { role: "assistant", content: "text" in reply ? reply.text : "" };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id,
          object: "chat.completion",
          created,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: finish }],
          usage,
        }),
        () => hooks.onReplied?.(body),
      );
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
    send(chunk({ role: "assistant", content: "" }));
    if (toolCalls.length) send(chunk({ tool_calls: toolCalls }));
    else for (const word of ("text" in reply ? reply.text : "").match(/\S+\s*/g) ?? []) send(chunk({ content: word }));
    send(chunk({}, finish));
    send({ id, object: "chat.completion.chunk", created, model: body.model, choices: [], usage });
    response.end("data: [DONE]\n\n", () => hooks.onReplied?.(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => (data += chunk));
    request.on("end", () => resolve(data));
    request.on("error", reject);
  });
}

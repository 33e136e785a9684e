import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Token counts a reply reports, written into each provider's own usage fields. */
export interface StubUsage {
  inputTokens: number;
  outputTokens: number;
}

export const DEFAULT_USAGE: StubUsage = { inputTokens: 12, outputTokens: 7 };

/**
 * One tool call. `arguments` is serialised as JSON; `rawArguments` is sent as it is, so a test can send arguments that
 * are not valid JSON. (Anthropic and Google carry arguments as JSON objects when not streaming: an unparsable raw string
 * is then sent as a JSON string value, the closest the wire format allows.)
 */
export interface StubToolCall {
  name: string;
  arguments?: unknown;
  rawArguments?: string;
  id?: string;
}

export interface StubReplyOptions {
  /** No response at all (not even headers) for this long. */
  delayMs?: number;
  /**
   * Send the headers (and, when streaming, the first `afterEvents` events; default 0), then nothing for `ms`
   * milliseconds or ever, then the rest. A stall ends early when the client goes away.
   */
  stall?: { ms: number | "forever"; afterEvents?: number };
  /**
   * Send the first `afterEvents` events (default: every event before the final ones, i.e. before the finish, usage and
   * end-of-stream events), then reset the connection. When not streaming, half of the JSON body is sent.
   */
  cut?: { afterEvents?: number };
  /** Usage to report (default {@link DEFAULT_USAGE}). */
  usage?: StubUsage;
  /**
   * The provider's own finish value, replacing the natural one: OpenAI chat `content_filter`/`length`, OpenAI Responses
   * `content_filter`/`max_output_tokens` (sent as an incomplete response), Anthropic `max_tokens`/`refusal`, Google
   * `SAFETY`/`MAX_TOKENS`...
   */
  finishReason?: string;
  /**
   * A failure the provider reports inside a stream it has begun (HTTP 200): after the first `afterEvents` events
   * (default: every event before the final ones), the format's own error event ({@link WireFormat.streamError}), or
   * `events` as given, then the end of the stream.
   */
  streamError?: StubStreamError;
}

export interface StubStreamError {
  message: string;
  /** The provider's error type (OpenAI `type`, Anthropic `error.type`); each format has a default. */
  type?: string;
  code?: string;
  afterEvents?: number;
  /** Sent instead of the format's error event, e.g. an OpenAI Responses `response.failed`. */
  events?: SseEvent[];
  /** Headers added to the stream's, e.g. `retry-after-ms` to make the SDK's retry of an error it throws quick. */
  headers?: Record<string, string>;
}

/** Plain text, streamed in word-sized chunks (or the given chunks), or as one body when the request does not stream. */
export interface StubTextReply {
  text: string | string[];
}

/** Tool calls, optionally after some text. */
export interface StubToolCallsReply {
  toolCalls: StubToolCall[];
  text?: string;
}

/**
 * The raw text of a structured-output answer, sent through whichever channel the request asked for (message text;
 * Anthropic's `json` tool when the request uses the JSON-tool fallback). Any text is allowed: not JSON, fenced JSON...
 */
export interface StubJsonReply {
  json: string;
}

/** An HTTP error with the provider's real error body (or `body`), and a Retry-After header when given. */
export interface StubErrorReply {
  error: number;
  message?: string;
  retryAfter?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export type StubContentReply = StubTextReply | StubToolCallsReply | StubJsonReply;
export type StubReply = (StubContentReply | StubErrorReply) & StubReplyOptions;

export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. /v1/chat/completions. */
  path: string;
  /** The query string, e.g. ?alt=sse, or "". */
  search: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body ({} when empty; { unparsed: text } when not JSON). */
  body: Record<string, unknown>;
}

/** Replies in order, or a function choosing the reply for each request (0-based index). */
export type StubScript = StubReply[] | ((request: RecordedRequest, index: number) => StubReply | undefined);

export interface StubHooks {
  /** Called as soon as a request's body is read, before any delay. */
  onRequest?: (request: RecordedRequest) => void;
  /** Awaited before the reply starts: what happens meanwhile happens while the client waits for the provider. */
  beforeReply?: (request: RecordedRequest) => Promise<void>;
  /** Called right after a reply has been written completely. */
  onReplied?: (request: RecordedRequest) => void;
}

export interface ProviderStub {
  /** Base URL to give the provider package, e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  /** Every request the format answers, in order (unknown paths get a 404 and are not recorded). */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** One server-sent event. `final` marks the closing events (finish, usage, end of stream) that a cut stream omits. */
export interface SseEvent {
  event?: string;
  data: unknown;
  final?: boolean;
}

export interface ReplyContext {
  index: number;
  request: RecordedRequest;
  model: string;
  usage: StubUsage;
}

/** How one provider's API looks on the wire. */
export interface WireFormat {
  /** Path of the base URL, e.g. /v1 */
  basePath: string;
  /** Whether the format answers this request, and whether the request asks for a stream. */
  route(request: RecordedRequest): { stream: boolean; model: string } | undefined;
  errorBody(status: number, message: string, reply?: StubErrorReply): unknown;
  /** The non-streamed answer. */
  body(reply: StubContentReply & StubReplyOptions, context: ReplyContext): unknown;
  /** The streamed answer, in order. */
  events(reply: StubContentReply & StubReplyOptions, context: ReplyContext): SseEvent[];
  /** The events with which the provider reports a failure inside a begun stream. */
  streamError(error: StubStreamError, context: ReplyContext): SseEvent[];
  /** Writes one event the way the provider frames it ("data: ...\n\n"). */
  frame?(event: SseEvent): string;
}

export function defaultFrame(event: SseEvent): string {
  const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
  return `${event.event ? `event: ${event.event}\n` : ""}data: ${data}\n\n`;
}

/** Splits text into word-sized chunks that concatenate back to it exactly. */
export function chunksOf(text: string | string[]): string[] {
  if (Array.isArray(text)) return text;
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** Splits a string into `parts` pieces of about the same length (for streamed JSON arguments). */
export function piecesOf(text: string, parts = 2): string[] {
  if (text.length < parts) return text ? [text] : [];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

export function argumentsText(call: StubToolCall): string {
  return call.rawArguments ?? JSON.stringify(call.arguments ?? {});
}

/** The arguments as a JSON value, for formats whose wire type is an object (an unparsable raw string stays a string). */
export function argumentsValue(call: StubToolCall): unknown {
  if (call.rawArguments === undefined) return call.arguments ?? {};
  try {
    return JSON.parse(call.rawArguments);
  } catch {
    return call.rawArguments;
  }
}

export function isErrorReply(reply: StubReply): reply is StubErrorReply & StubReplyOptions {
  return "error" in reply;
}

/** Starts a local server that speaks `format` and answers each request with the next scripted reply. */
export async function startStubServer(
  format: WireFormat,
  script: StubScript,
  hooks: StubHooks = {},
): Promise<ProviderStub> {
  const requests: RecordedRequest[] = [];
  let served = 0;
  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", "http://stub");
    const text = await readBody(request);
    const recorded: RecordedRequest = {
      method: request.method ?? "GET",
      path: url.pathname,
      search: url.search,
      headers: request.headers,
      body: parseBody(text),
    };
    const route = format.route(recorded);
    if (!route) {
      sendJson(response, 404, format.errorBody(404, `the stub does not serve ${recorded.method} ${recorded.path}`));
      return;
    }
    requests.push(recorded);
    hooks.onRequest?.(recorded);
    await hooks.beforeReply?.(recorded);
    const index = served++;
    const reply = typeof script === "function" ? script(recorded, index) : script[index];
    const gone = whenGone(response);
    if (reply?.delayMs) await wait(reply.delayMs, gone);
    if (response.destroyed || gone.done) return;
    const replied = () => hooks.onReplied?.(recorded);
    if (!reply) {
      sendJson(response, 500, format.errorBody(500, "the stub has no more scripted replies"), replied);
      return;
    }
    if (isErrorReply(reply)) {
      const headers: Record<string, string> = { ...reply.headers };
      if (reply.retryAfter !== undefined) headers["retry-after"] = reply.retryAfter;
      const message = reply.message ?? `scripted error ${reply.error}`;
      sendJson(response, reply.error, reply.body ?? format.errorBody(reply.error, message, reply), replied, headers);
      return;
    }
    const context: ReplyContext = { index, request: recorded, model: route.model, usage: reply.usage ?? DEFAULT_USAGE };

    if (!route.stream) {
      const body = JSON.stringify(format.body(reply, context));
      response.writeHead(200, { "content-type": "application/json" });
      if (reply.stall) {
        response.flushHeaders();
        await wait(reply.stall.ms, gone);
        if (gone.done) return;
      }
      if (reply.cut) {
        await write(response, body.slice(0, Math.floor(body.length / 2)));
        reset(response);
        return;
      }
      response.end(body, replied);
      return;
    }

    const events = format.events(reply, context);
    const frame = format.frame ?? defaultFrame;
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...reply.streamError?.headers,
    });
    response.flushHeaders();
    const firstFinal = events.findIndex((event) => event.final);
    const cutAt = reply.cut ? (reply.cut.afterEvents ?? (firstFinal === -1 ? events.length : firstFinal)) : undefined;
    const stallAt = reply.stall ? (reply.stall.afterEvents ?? 0) : undefined;
    const failAt = reply.streamError
      ? (reply.streamError.afterEvents ?? (firstFinal === -1 ? events.length : firstFinal))
      : undefined;
    for (let i = 0; i <= events.length; i++) {
      if (i === stallAt && reply.stall) await wait(reply.stall.ms, gone);
      if (response.destroyed || gone.done) return;
      if (i === cutAt) {
        reset(response);
        return;
      }
      if (i === failAt && reply.streamError) {
        const failure = reply.streamError.events ?? format.streamError(reply.streamError, context);
        for (const event of failure) await write(response, frame(event));
        response.end(replied);
        return;
      }
      const event = events[i];
      if (event) await write(response, frame(event));
    }
    response.end(replied);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${format.basePath}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseBody(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { unparsed: text };
  }
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  done?: () => void,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body), done);
}

/** Resolves once the client has gone away (or the response is over); `done` tells whether that happened. */
function whenGone(response: ServerResponse): Promise<void> & { done: boolean } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  }) as Promise<void> & { done: boolean };
  promise.done = false;
  response.once("close", () => {
    promise.done = !response.writableFinished;
    resolve();
  });
  return promise;
}

function wait(ms: number | "forever", gone: Promise<void>): Promise<void> {
  if (ms === "forever") return gone;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    gone.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function write(response: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => response.write(chunk, () => resolve()));
}

/** Drops the connection abruptly (TCP reset), without ending the chunked body. */
function reset(response: ServerResponse) {
  const socket = response.socket;
  if (socket && "resetAndDestroy" in socket) socket.resetAndDestroy();
  else response.destroy();
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => {
      data += chunk;
    });
    request.on("end", () => resolve(data));
    request.on("error", reject);
  });
}

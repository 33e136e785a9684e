import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as the OTLP/HTTP JSON encoding carries it (ids in hex). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
  links?: Array<{ traceId: string; spanId: string }>;
  events?: unknown[];
  status?: unknown;
}

export interface OtlpReceiver {
  /** Give this as OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** Every span received so far. */
  spans: ReceivedSpan[];
  /** Every request body received so far, as sent (traces and metrics). */
  bodies: string[];
  close(): Promise<void>;
}

/**
 * A collector's OTLP/HTTP endpoint on 127.0.0.1: takes POST /v1/traces and /v1/metrics in the JSON encoding the
 * OpenTelemetry HTTP exporters send, keeps what arrives, and answers as a collector does.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    bodies.push(body);
    if (request.method !== "POST" || !request.headers["content-type"]?.includes("application/json")) {
      response.writeHead(415).end();
      return;
    }
    if (request.url === "/v1/traces") {
      const decoded = JSON.parse(body) as {
        resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: ReceivedSpan[] }> }>;
      };
      for (const resource of decoded.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      }
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

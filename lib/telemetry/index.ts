import {
  type Attributes,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { Telemetry, TelemetryOptions } from "ai";
import { existingProcessState } from "@/lib/process-state";

/**
 * Spans through the OpenTelemetry API only: without an SDK registered (lib/telemetry/sdk.ts, when OTEL_* is set)
 * every call here is the API's no-op, so the core (lib/memory) may use it and costs nothing when telemetry is off.
 * Attributes carry ids, counts and models, never message or memory text (docs/observability.md).
 */

const TRACER = "memory-ledger";

/** Runs `work` in a span named `name`; a thrown error marks the span failed with its class (never its message). */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  options: { links?: Link[] } = {},
): Promise<T> {
  const parent = context.active();
  const span = trace.getTracer(TRACER).startSpan(name, { attributes, links: options.links }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute("error.type", errorClass(error));
    throw error;
  } finally {
    span.end();
  }
}

/**
 * A span that outlives the call that opens it (a chat turn ends when its stream does): `run` does work inside it,
 * `end` closes it, failed when given an error.
 */
export function openSpan(name: string, attributes: Attributes) {
  const span = trace.getTracer(TRACER).startSpan(name, { attributes });
  const inside = trace.setSpan(context.active(), span);
  let ended = false;
  return {
    span,
    run: <T>(work: () => T): T => context.with(inside, work),
    end(error?: unknown) {
      if (ended) return;
      ended = true;
      if (error !== undefined) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute("error.type", errorClass(error));
      }
      span.end();
    },
  };
}

/** The active trace context as W3C headers, to carry in a queued job's data; undefined when nothing is traced. */
export function traceCarrier(): Record<string, string> | undefined {
  if (!trace.getSpanContext(context.active())) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** A link to the span that `carrier` names (the request that queued a job): the job runs in its own trace. */
export function linksTo(carrier: Record<string, string> | undefined): Link[] {
  if (!carrier) return [];
  const linked = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier));
  return linked && trace.isSpanContextValid(linked) ? [{ context: linked }] : [];
}

/** The id of the trace in progress, for log lines; undefined when nothing is traced. */
export function currentTraceId(): string | undefined {
  const spanContext = trace.getSpanContext(context.active());
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/**
 * The AI SDK's per-call telemetry settings: its spans (when an SDK is registered) keep models and token counts but
 * not prompts, outputs or tool arguments, which the SDK records by default.
 */
export function modelTelemetry(functionId: string): TelemetryOptions {
  const integration = existingProcessState<Telemetry>(AI_TELEMETRY);
  return { functionId, recordInputs: false, recordOutputs: false, ...(integration && { integrations: [integration] }) };
}

/** Where lib/telemetry/sdk.ts keeps the AI SDK's OpenTelemetry integration while traces are on. */
export const AI_TELEMETRY = "ai-telemetry";

export function errorClass(error: unknown): string {
  return error instanceof Error ? error.name || "Error" : typeof error;
}

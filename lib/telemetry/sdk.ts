import { monitorEventLoopDelay } from "node:perf_hooks";
import { OpenTelemetry } from "@ai-sdk/otel";
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { config } from "@/lib/config";
import { logFailure } from "@/lib/log";
import { clearProcessState, existingProcessState, processState } from "@/lib/process-state";
import { trimEnd } from "@/lib/text/trim";
import { AI_TELEMETRY } from "./index";

/** What the process's gauges read when metrics are collected (a scrape of /api/metrics, an OTLP export). */
export interface GaugeSources {
  /** Memories waiting for a vector, across users. */
  embeddingBacklog?: () => Promise<number>;
  /** Jobs waiting or running, by queue. */
  queueDepths?: () => Promise<Array<{ queue: string; state: string; jobs: number }>>;
}

export interface Telemetry {
  /** The process's metrics as Prometheus text (GET /api/metrics). */
  prometheusText(): Promise<string>;
  /** Sends what is buffered to the collector now (tests; shutdown). */
  flush(): Promise<void>;
  /** Flushes, stops exporting and unregisters the providers (the process ends, or a test does). */
  shutdown(): Promise<void>;
}

/**
 * Starts the process's OpenTelemetry SDK, once (docs/observability.md). Metrics always: they stay in memory until a
 * scrape of /api/metrics reads them. Traces, and metrics pushed over OTLP/HTTP, only when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set; otherwise no tracer provider is registered and every span the app asks for is the API's no-op.
 */
export function startTelemetry(sources: GaugeSources = {}): Telemetry {
  return processState("telemetry", () => start(sources));
}

/** The process's telemetry when started (the metrics route reads it). */
export function runningTelemetry(): Telemetry | undefined {
  return existingProcessState<Telemetry>("telemetry");
}

function start(sources: GaugeSources): Telemetry {
  const { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: serviceName } = config();
  const resource = resourceFromAttributes({ "service.name": serviceName });
  const base = endpoint === undefined ? undefined : trimEnd(endpoint, "/");
  const scrape = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
  const readers: MetricReader[] = [scrape];
  if (base) {
    readers.push(
      new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${base}/v1/metrics` }) }),
    );
  }
  const meterProvider = new MeterProvider({ resource, readers });
  metrics.setGlobalMeterProvider(meterProvider);
  const stopGauges = observeGauges(meterProvider, sources);

  let tracerProvider: TracerProvider | undefined;
  if (base) {
    tracerProvider = new TracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${base}/v1/traces` }) })],
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(tracerProvider);
    // The AI SDK's spans (each model call, each tool call) under the app's, handed to each call with prompts and
    // outputs left out (modelTelemetry in lib/telemetry) rather than registered globally, so shutdown removes them.
    const aiTracer = tracerProvider.getTracer("ai");
    processState(AI_TELEMETRY, () => new OpenTelemetry({ tracer: aiTracer }));
  }

  const serializer = new PrometheusSerializer(undefined, undefined, undefined, false, true);
  return {
    async prometheusText() {
      const { resourceMetrics, errors } = await scrape.collect();
      for (const error of errors) logFailure("collecting metrics", error, "warn");
      return serializer.serialize(resourceMetrics);
    },
    async flush() {
      await Promise.all([tracerProvider?.forceFlush(), meterProvider.forceFlush()]);
    },
    async shutdown() {
      stopGauges();
      await Promise.all([tracerProvider?.shutdown(), meterProvider.shutdown()]);
      metrics.disable();
      if (tracerProvider) {
        trace.disable();
        context.disable();
        propagation.disable();
      }
      clearProcessState(AI_TELEMETRY);
      clearProcessState("telemetry");
    },
  };
}

/** The gauges that read the process and the database when collected; returns what stops them. */
function observeGauges(provider: MeterProvider, sources: GaugeSources): () => void {
  const meter = provider.getMeter("memory-ledger");
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const window = setInterval(() => loop.reset(), config().METRICS_LOOP_WINDOW_SECONDS * 1_000);
  window.unref();
  meter
    .createObservableGauge("nodejs.eventloop.delay.p99", {
      description: "99th percentile of event-loop delay over the current window (at most a minute)",
      unit: "s",
    })
    .addCallback((result) => result.observe(nanosToSeconds(loop.percentile(99))));
  meter
    .createObservableGauge("nodejs.eventloop.delay.max", {
      description: "Longest event-loop delay over the current window (at most a minute)",
      unit: "s",
    })
    .addCallback((result) => result.observe(nanosToSeconds(loop.max)));
  const { embeddingBacklog, queueDepths } = sources;
  if (embeddingBacklog) {
    meter
      .createObservableGauge("memory_ledger.embedding.backlog", {
        description: "Memories waiting for a vector for the configured embedding model, across users",
        unit: "{memory}",
      })
      .addCallback(async (result) => result.observe(await embeddingBacklog()));
  }
  if (queueDepths) {
    meter
      .createObservableGauge("memory_ledger.queue.depth", {
        description: "Jobs waiting (created, retry) or running (active), by queue and state",
        unit: "{job}",
      })
      .addCallback(async (result) => {
        for (const { queue, state, jobs } of await queueDepths()) result.observe(jobs, { queue, state });
      });
  }
  return () => {
    clearInterval(window);
    loop.disable();
  };
}

/** The histogram reports nanoseconds, and NaN-free zeros before its first sample. */
function nanosToSeconds(value: number): number {
  return Number.isFinite(value) ? value / 1e9 : 0;
}

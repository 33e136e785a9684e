import { type Meter, type MeterProvider, metrics } from "@opentelemetry/api";

/**
 * The app's instruments, through the OpenTelemetry API only (docs/observability.md says what each means). The
 * global meter provider has no proxy: a meter taken before the SDK registers stays a no-op, so instruments are made
 * from whichever provider is registered when they are first used after a change.
 */

const METER = "memory-ledger";
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

function create(meter: Meter) {
  return {
    requestDuration: meter.createHistogram("http.server.request.duration", {
      description: "API request latency by route, method and status",
      unit: "s",
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    }),
    searchDuration: meter.createHistogram("memory_ledger.search.duration", {
      description: "Memory search latency by mode (lexical, vector, hybrid, overview)",
      unit: "s",
      advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
    }),
    modelTokens: meter.createCounter("memory_ledger.model.tokens", {
      description: "Model tokens by purpose, model and direction (input, output)",
      unit: "{token}",
    }),
    modelCost: meter.createCounter("memory_ledger.model.cost", {
      description: "Model cost in USD by purpose and model, where the model has a price",
      unit: "usd",
    }),
    jobs: meter.createCounter("memory_ledger.jobs", {
      description: "Queued jobs run, by queue and outcome (completed, failed)",
      unit: "{job}",
    }),
    runs: meter.createCounter("memory_ledger.runs", {
      description: "Extraction and optimizer runs by kind and outcome",
      unit: "{run}",
    }),
    webhookDeliveries: meter.createCounter("memory_ledger.webhook.deliveries", {
      description: "Webhook delivery attempts by outcome",
      unit: "{attempt}",
    }),
  };
}

let made: { provider: MeterProvider; instruments: ReturnType<typeof create> } | undefined;

/** The instruments of the registered meter provider (no-ops when none is). */
export function instruments(): ReturnType<typeof create> {
  const provider = metrics.getMeterProvider();
  if (made?.provider !== provider) made = { provider, instruments: create(provider.getMeter(METER)) };
  return made.instruments;
}

/** Seconds since `startedAt` (a performance.now() reading), as the duration histograms take them. */
export function secondsSince(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}

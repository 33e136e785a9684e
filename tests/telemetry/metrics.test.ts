import "../support/route-mocks";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockEmbeddingModelV4, MockLanguageModelV4 } from "ai/test";
import parsePrometheusTextFormat, { type Family } from "parse-prometheus-text-format";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startChatTurn } from "@/lib/chat/turn";
import type { Database } from "@/lib/db/client";
import { embeddingBacklogAcrossUsers, embedMissing } from "@/lib/memory/search";
import { createMemory } from "@/lib/memory/store";
import { createWebhook } from "@/lib/memory/webhooks";
import { JobQueue } from "@/lib/server/queue";
import { currentTraceId, inSpan, traceCarrier } from "@/lib/telemetry";
import { startTelemetry, type Telemetry } from "@/lib/telemetry/sdk";
import { finalMessage } from "../chat/support";
import { addExchange } from "../extraction/support";
import { contextFor, createUser } from "../memory/support";
import { openMigratedPglite } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { principalFor, routeHarness } from "../support/route-harness";
import { startReceiver } from "../webhooks/receiver";

const { GET: metricsRoute } = await import("@/app/api/metrics/route");
const { POST: searchRoute } = await import("@/app/api/v1/memories/search/route");
const { handleExtractionJob } = await import("@/lib/server/worker");
const { startWebhookWorker } = await import("@/lib/server/webhooks");

const TOKEN = "metrics-token-0f9e8d7c6b5a";
const embeddingModel = new MockEmbeddingModelV4({
  provider: "test",
  modelId: "flat",
  doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 0, 0]), warnings: [] }),
});

let database: Database;
let queue: JobQueue;
let telemetry: Telemetry;
let stopWebhooks: () => void;
let userId: string;

beforeAll(async () => {
  setEnv({
    METRICS_TOKEN: TOKEN,
    METRICS_LOOP_WINDOW_SECONDS: "1",
    EMBEDDING_MODEL: "none",
    WEBHOOK_ALLOW_PRIVATE: "true",
  });
  database = await openMigratedPglite();
  routeHarness.database = database;
  queue = await JobQueue.open(database, { pollingIntervalSeconds: 0.5 });
  // The gauges' sources as lib/server/telemetry.ts wires them, on this test's database, queue and embedding model.
  telemetry = startTelemetry({
    embeddingBacklog: async () => (await embeddingBacklogAcrossUsers(database, embeddingModel)).pending,
    queueDepths: () => queue.depths(),
  });
  await queue.work((data, meta) => handleExtractionJob(database, data, meta));
  stopWebhooks = await startWebhookWorker(database, queue);
  userId = await createUser(database);
});
afterAll(async () => {
  stopWebhooks();
  await queue.stop(5_000);
  await telemetry.shutdown();
  await database.close();
  restoreEnv();
});

/** The exposition /api/metrics serves, after checking that the parser reads all of it. */
async function scrape(): Promise<string> {
  const response = await metricsRoute(
    new Request("http://localhost/api/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }),
  );
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(parsePrometheusTextFormat(text).length).toBeGreaterThan(0);
  return text;
}

/**
 * The sum of the family's values over the samples whose labels include `labels`; for a histogram, the count of the
 * one series `labels` names (its `+Inf` bucket). The parser gives histograms prom2json's flat shape, which merges
 * their series, so a histogram's series is parsed on its own; NaN when the family is absent.
 */
function reading(text: string, name: string, labels: Record<string, string> = {}): number {
  const family = parsePrometheusTextFormat(text).find((candidate) => candidate.name === name);
  if (!family) return Number.NaN;
  const matches = (sample: Family["metrics"][number]) =>
    Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value);
  if (family.type !== "HISTOGRAM") {
    return family.metrics.filter(matches).reduce((sum, sample) => sum + Number(sample.value), 0);
  }
  const pairs = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const series = text
    .split("\n")
    .filter((line) =>
      line.startsWith(`# `)
        ? line.split(" ")[2] === name
        : line.startsWith(`${name}_bucket{`) && pairs.every((pair) => line.includes(pair)),
    );
  const [parsed] = parsePrometheusTextFormat(`${series.join("\n")}\n`);
  return Number(parsed?.metrics[0]?.buckets?.["+Inf"] ?? 0);
}

const read = async (name: string, labels: Record<string, string> = {}) => reading(await scrape(), name, labels);

it("answers 401 without the token, with a wrong one or a non-admin's session; 200 for the token or an admin", async () => {
  const status = async (headers: Record<string, string>) =>
    (await metricsRoute(new Request("http://localhost/api/metrics", { headers }))).status;
  routeHarness.principal = null;
  expect(await status({})).toBe(401);
  expect(await status({ authorization: `Bearer ${TOKEN}x` })).toBe(401);
  expect(await status({ authorization: `Bearer ${TOKEN}` })).toBe(200);
  routeHarness.principal = principalFor(userId);
  expect(await status({})).toBe(401);
  routeHarness.principal = principalFor(userId, "admin");
  expect(await status({})).toBe(200);
  expect(await status({ authorization: "Bearer not-the-token" })).toBe(401);
  routeHarness.principal = null;
});

it("request latency by route and search latency by mode count a search request", async () => {
  const route = {
    http_route: "/api/v1/memories/search",
    http_request_method: "POST",
    http_response_status_code: "200",
  };
  const before = await scrape();
  routeHarness.principal = principalFor(userId);
  const response = await searchRoute(
    new Request("http://localhost/api/v1/memories/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "kettle" }),
    }),
    { params: Promise.resolve({}) },
  );
  routeHarness.principal = null;
  expect(response.status).toBe(200);
  const after = await scrape();
  const requests = (text: string) => reading(text, "http_server_request_duration", route);
  const searches = (text: string) => reading(text, "memory_ledger_search_duration", { mode: "lexical" });
  expect(requests(after) - (requests(before) || 0)).toBe(1);
  expect(searches(after) - (searches(before) || 0)).toBe(1);
});

it("model tokens and cost count a chat turn's usage by purpose and model", async () => {
  const usage = {
    inputTokens: { total: 11, noCache: 11, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 7, text: 7, reasoning: undefined },
  };
  const parts: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Hello." },
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
  ];
  const model = new MockLanguageModelV4({ doStream: [{ stream: simulateReadableStream({ chunks: parts }) }] });
  const labels = { purpose: "chat", model: "mock:priced" };
  const turn = await startChatTurn(
    { memory: contextFor(database, userId), model, modelId: "mock:priced", contextTokens: 8_000, pricing: () => 0.25 },
    {
      id: "priced",
      trigger: "submit-message",
      message: { id: "u-priced", role: "user", parts: [{ type: "text", text: "Hi" }] },
    },
  );
  await finalMessage(turn.response);
  const text = await scrape();
  expect(reading(text, "memory_ledger_model_tokens_total", { ...labels, direction: "input" })).toBe(11);
  expect(reading(text, "memory_ledger_model_tokens_total", { ...labels, direction: "output" })).toBe(7);
  expect(reading(text, "memory_ledger_model_cost_total", labels)).toBe(0.25);
});

it("queue depth counts waiting jobs; job and run outcomes count an extraction job", async () => {
  const waiting = { queue: "memory-extraction", state: "created" };
  const depthBefore = (await read("memory_ledger_queue_depth", waiting)) || 0;
  await queue.enqueue({ userId, threadId: "later" }, 3_600_000);
  expect(await read("memory_ledger_queue_depth", waiting)).toBe(depthBefore + 1);

  await addExchange(database, userId, "now", ["n1", "user", "I keep bees"], ["n2", "assistant", "Lovely."]);
  await queue.enqueue({ userId, threadId: "now", answeredOnly: true }, 0);
  await expect
    .poll(() => read("memory_ledger_jobs_total", { queue: "memory-extraction", outcome: "completed" }), {
      timeout: 60_000,
      interval: 250,
    })
    .toBe(1);
  expect(await read("memory_ledger_runs_total", { kind: "extraction", outcome: "succeeded" })).toBe(1);
});

it("embedding backlog counts memories waiting for a vector, and falls when they get one", async () => {
  const owner = await createUser(database);
  const before = await read("memory_ledger_embedding_backlog");
  await createMemory(contextFor(database, owner), { content: "The shed key hangs by the door" });
  expect(await read("memory_ledger_embedding_backlog")).toBe(before + 1);
  await embedMissing({ ...contextFor(database, owner), embeddingModel });
  expect(await read("memory_ledger_embedding_backlog")).toBe(before);
});

it("webhook outcomes count a delivery", async () => {
  const receiver = await startReceiver();
  try {
    const owner = await createUser(database);
    const ctx = contextFor(database, owner, {
      scheduleWebhookDeliveries: (deliveries) => queue.sendWebhookDeliveries(deliveries),
    });
    await createWebhook(ctx, { url: receiver.url(), events: ["memory.created"] }, { allowPrivate: true });
    await createMemory(ctx, { content: "The gate code changed" });
    await expect
      .poll(() => read("memory_ledger_webhook_deliveries_total", { outcome: "succeeded" }), {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(1);
  } finally {
    await receiver.close();
  }
});

it("event-loop delay reports a loop held busy, until its window (METRICS_LOOP_WINDOW_SECONDS) has passed", async () => {
  // Holding the event loop, as a synchronous stall in a request would. The one-second window may close between the
  // stall and the scrape, so each try stalls again.
  const stalled = async () => {
    const until = performance.now() + 500;
    while (performance.now() < until) {
      // busy
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    return read("nodejs_eventloop_delay_max");
  };
  await expect.poll(stalled, { timeout: 10_000, interval: 0 }).toBeGreaterThanOrEqual(0.45);
  expect(await read("nodejs_eventloop_delay_p99")).toBeGreaterThan(0);
  await expect.poll(() => read("nodejs_eventloop_delay_max"), { timeout: 10_000, interval: 250 }).toBeLessThan(0.45);
});

it("without OTEL_EXPORTER_OTLP_ENDPOINT, spans are no-ops: no trace id to log, no trace context on queued jobs", async () => {
  const inside = await inSpan("unexported", {}, async () => ({ traceId: currentTraceId(), carrier: traceCarrier() }));
  expect(inside).toEqual({ traceId: undefined, carrier: undefined });
});

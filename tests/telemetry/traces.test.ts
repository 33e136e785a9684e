import { format } from "node:util";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startChatTurn } from "@/lib/chat/turn";
import type { Database } from "@/lib/db/client";
import { structureConsole, withLogFields } from "@/lib/log";
import { JobQueue } from "@/lib/server/queue";
import { handleExtractionJob } from "@/lib/server/worker";
import { inSpan } from "@/lib/telemetry";
import { startTelemetry, type Telemetry } from "@/lib/telemetry/sdk";
import { finalMessage } from "../chat/support";
import { contextFor, createUser } from "../memory/support";
import { openMigratedPglite } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./otlp-receiver";

// What the person and the model say: none of it may reach a span.
const QUESTION = "Remember that my heron is called Wistlebury-Quonk";
const TOOL_CONTENT = "User's heron is called Wistlebury-Quonk";
const ANSWER = "Noted, your heron Wistlebury-Quonk.";
const WRITTEN = [QUESTION, TOOL_CONTENT, ANSWER, "Wistlebury", "Quonk"];

const usage = {
  inputTokens: { total: 11, noCache: 11, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 7, text: 7, reasoning: undefined },
};
const streamOf = (parts: LanguageModelV4StreamPart[]) => ({
  stream: simulateReadableStream({
    chunks: [{ type: "stream-start", warnings: [] }, ...parts] as LanguageModelV4StreamPart[],
  }),
});

let receiver: OtlpReceiver;
let telemetry: Telemetry;
let database: Database;
let queue: JobQueue;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  setEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
  telemetry = startTelemetry();
  database = await openMigratedPglite();
  queue = await JobQueue.open(database, { pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await queue.stop(5_000);
  await telemetry.shutdown();
  await database.close();
  await receiver.close();
  restoreEnv();
});

it("a chat turn is one trace: model and tool spans under the turn, its extraction job linked to it, no text", async () => {
  const userId = await createUser(database);
  await queue.work((data, meta) => handleExtractionJob(database, data, meta));
  const model = new MockLanguageModelV4({
    doStream: [
      streamOf([
        {
          type: "tool-call",
          toolCallId: "c1",
          toolName: "manage_memory",
          input: JSON.stringify({ action: "create", content: TOOL_CONTENT }),
        },
        { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
      ]),
      streamOf([
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: ANSWER },
        { type: "text-end", id: "t" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ]),
    ],
  });
  const turn = await startChatTurn(
    {
      memory: contextFor(database, userId),
      model,
      modelId: "mock:model",
      contextTokens: 8_000,
      onAnswerSaved: () => queue.enqueue({ userId, threadId: "heron", answeredOnly: true }, 0),
    },
    {
      id: "heron",
      trigger: "submit-message",
      message: { id: "u-heron", role: "user", parts: [{ type: "text", text: QUESTION }] },
    },
  );
  await finalMessage(turn.response);
  await turn.afterResponse();

  const named = (name: string) => receiver.spans.filter((span) => span.name === name);
  await expect
    .poll(
      async () => {
        await telemetry.flush();
        return named("extraction run").length;
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(1);

  const [chatTurn] = named("chat turn");
  expect(chatTurn).toBeDefined();
  const byId = new Map(receiver.spans.map((span) => [span.spanId, span]));
  const under = (span: ReceivedSpan, ancestor: ReceivedSpan): boolean => {
    for (let parent = byId.get(span.parentSpanId ?? ""); parent; parent = byId.get(parent.parentSpanId ?? "")) {
      if (parent.spanId === ancestor.spanId) return true;
    }
    return false;
  };
  const trace = receiver.spans.filter((span) => span.traceId === chatTurn!.traceId);
  const modelCalls = trace.filter((span) => span.name.startsWith("chat ") && under(span, chatTurn!));
  expect(modelCalls).toHaveLength(2);
  expect(attribute(modelCalls[0]!, "gen_ai.usage.input_tokens")).toBe(11);
  expect(trace.filter((span) => span.name === "execute_tool manage_memory" && under(span, chatTurn!))).toHaveLength(1);
  expect(trace.some((span) => span.name === "memory search" && under(span, chatTurn!))).toBe(true);

  const [job] = named("job memory-extraction");
  expect(job!.traceId).not.toBe(chatTurn!.traceId);
  expect(job!.links).toEqual([expect.objectContaining({ traceId: chatTurn!.traceId, spanId: chatTurn!.spanId })]);
  expect(under(named("extraction run")[0]!, job!)).toBe(true);

  const exported = receiver.bodies.join("\n");
  for (const text of WRITTEN) expect(exported, `a span carries "${text}"`).not.toContain(text);
});

it("a log line written in a span names its trace and the job it belongs to", async () => {
  const lines: string[] = [];
  const target = { warn: (...args: unknown[]) => lines.push(format(...args)) } as unknown as Console;
  for (const level of ["error", "info", "log", "debug", "trace"] as const) target[level] = target.warn;
  structureConsole(target);
  await withLogFields({ job_id: "job-42" }, () => inSpan("logging", {}, async () => target.warn("a job line")));
  await telemetry.flush();
  const [span] = receiver.spans.filter((candidate) => candidate.name === "logging");
  expect(JSON.parse(lines[0]!)).toEqual({
    time: expect.any(String),
    level: "warn",
    job_id: "job-42",
    trace_id: span!.traceId,
    msg: "a job line",
  });
});

function attribute(span: ReceivedSpan, key: string): unknown {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  return value && Object.values(value)[0];
}

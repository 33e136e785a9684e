import { and, eq } from "drizzle-orm";
import { afterEach, expect, it, vi } from "vitest";
import { ModelTimeoutError } from "@/lib/ai/idle-timeout";
import { createModelRegistry, languageModel } from "@/lib/ai/registry";
import { ensureThread, loadMessages, writeMessagesFrom } from "@/lib/chat/threads";
import type { ChatMessage } from "@/lib/chat/types";
import { parseConfig } from "@/lib/config";
import { extractionRuns } from "@/lib/db/schema";
import { userHash } from "@/lib/log";
import { runExtraction } from "@/lib/memory/extraction";
import { bindingFor, contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { type ProviderStub, type StubScript, startProviderStub } from "../support/provider-stubs";
import { addExchange } from "./support";

/*
 * The background manager when its provider misbehaves, over real HTTP (the app's registry, openai-compatible, pointed
 * at a stub of the chat-completions wire format) with MODEL_TIMEOUT_MS at 300 ms.
 */

const stubs: ProviderStub[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(stubs.splice(0).map((stub) => stub.close()));
});

const MODEL_ID = "openai-compatible:manager";

async function provider(script: StubScript) {
  const stub = await startProviderStub("openai-chat", script);
  stubs.push(stub);
  const registry = createModelRegistry(
    parseConfig({ OPENAI_COMPATIBLE_BASE_URL: stub.baseURL, MODEL_TIMEOUT_MS: "300" }),
  );
  return { stub, model: languageModel(registry, MODEL_ID) };
}

const SECRET = "my locker code is ORCHID-5521";

describeEachDatabase("the manager when the provider fails", (use) => {
  async function setup(threadId: string) {
    const database = use();
    const userId = await createUser(database);
    const ctx = contextFor(database, userId);
    const runOf = async () => {
      const [run] = await database.unbound.db
        .select()
        .from(extractionRuns)
        .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.threadId, threadId)));
      return run!;
    };
    return { database, userId, ctx, runOf };
  }

  it("a stalled call times out as a transient failure, each failed attempt logs one line without content", async () => {
    const { database, userId, ctx, runOf } = await setup("stalled");
    await addExchange(database, userId, "stalled", ["u1", "user", SECRET], ["a1", "assistant", "Noted."]);
    const { stub, model } = await provider([
      { json: '{"ops":[]}', stall: { ms: "forever" } },
      { error: 503, retryAfter: "0" },
      { error: 503, retryAfter: "0" },
      { error: 503, retryAfter: "0" },
      { json: '{"ops":[]}' },
    ]);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const attempt = (finalAttempt: boolean) =>
      runExtraction({ ctx, model, modelId: MODEL_ID }, { threadId: "stalled", jobId: "job-stalled", finalAttempt });

    // Not a failure the same request must meet again: thrown, so the queue retries it with its backoff.
    await expect(attempt(false)).rejects.toBeInstanceOf(ModelTimeoutError);
    const run = await runOf();
    expect(run).toMatchObject({
      status: "queued",
      attempts: 1,
      error: "The model sent nothing for 0.3 s, so the request was stopped; try again.",
    });
    await expect(attempt(false)).rejects.toThrow();
    expect(await runOf()).toMatchObject({
      status: "queued",
      attempts: 2,
      error: "The model provider had a server error (HTTP 503); try again shortly.",
    });
    expect(await attempt(true)).toMatchObject({ status: "succeeded", runId: run.id });
    expect(stub.requests).toHaveLength(5);
    expect(JSON.stringify(stub.requests[0]!.body)).toContain("ORCHID-5521");

    const lines = warn.mock.calls.map((call) => call.join(" "));
    expect(lines).toEqual([
      `memory extraction attempt failed: run=${run.id} model=${MODEL_ID} attempt=1 retried=true user=${userHash(userId)} error=ModelTimeoutError`,
      `memory extraction attempt failed: run=${run.id} model=${MODEL_ID} attempt=2 retried=true user=${userHash(userId)} error=AI_RetryError last=AI_APICallError status=503`,
    ]);
    for (const line of lines) {
      expect(line).not.toContain("ORCHID");
      expect(line).not.toContain(userId);
      expect(line).not.toMatch(/locker|Noted/);
    }
  });

  it("an answer that broke off is neither an answered exchange nor the assistant's words to the manager", async () => {
    const { database, userId, ctx } = await setup("broken");
    const binding = bindingFor(database, userId);
    await ensureThread(binding, "broken");
    const text = (value: string) => [{ type: "text" as const, text: value }];
    const broken: ChatMessage[] = [
      { id: "u1", role: "user", parts: text("I like green tea") },
      { id: "a1", role: "assistant", parts: text("So you like coff"), metadata: { incomplete: true, failure: "cut" } },
    ];
    await writeMessagesFrom(binding, "broken", broken, 0);
    const { stub, model } = await provider([{ json: '{"ops":[]}' }]);

    const waiting = await runExtraction(
      { ctx, model, modelId: MODEL_ID },
      { threadId: "broken", jobId: "job-broken-1", finalAttempt: true, answeredOnly: true },
    );
    expect(waiting).toEqual({ status: "skipped", reason: "the newest message is not answered yet" });
    expect(stub.requests).toHaveLength(0);

    // A later exchange answers; the manager then reads the whole thread, without the broken-off words.
    await addExchange(database, userId, "broken", ["u2", "user", "And I play chess"], ["a2", "assistant", "Noted."]);
    expect(await loadMessages(binding, "broken")).toHaveLength(4);
    const done = await runExtraction(
      { ctx, model, modelId: MODEL_ID },
      { threadId: "broken", jobId: "job-broken-2", finalAttempt: true, answeredOnly: true },
    );
    expect(done).toMatchObject({ status: "succeeded" });
    const prompt = JSON.stringify(stub.requests[0]!.body);
    expect(prompt).toContain("I like green tea");
    expect(prompt).toContain("And I play chess");
    expect(prompt).not.toContain("So you like coff");
  });
});

import "../support/route-mocks";
import { format } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { toErrorResponse } from "@/lib/api/errors";
import { createApiKey } from "@/lib/auth/api-keys";
import { startChatTurn } from "@/lib/chat/turn";
import { extractionRuns } from "@/lib/db/schema";
import { describeError, describeErrorWithStack, structureConsole, withLogFields } from "@/lib/log";
import { createMemory } from "@/lib/memory/store";
import { JobQueue } from "@/lib/server/queue";
import { bearer, call } from "../api-keys/support";
import { finalMessage } from "../chat/support";
import { addExchange } from "../extraction/support";
import { bindingFor, contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub";
import { routeHarness } from "../support/route-harness";

const collection = await import("@/app/api/v1/memories/route");
const { POST: search } = await import("@/app/api/v1/memories/search/route");
const { handleExtractionJob } = await import("@/lib/server/worker");

const MEMORY_TEXT = "User's locker code is 7319-QUARTZ";
const MESSAGE_TEXT = "What is my locker code? Also, my passport number is ORCHID-5521.";
const PROVIDER_KEY = "sk-provider-secret-9b7e1c44";
const AUTH_SECRET = "auth-secret-never-logged-0123456789abcdef";

/** Everything the process printed through the console or as a warning, as it would appear in the log. */
const printed: string[] = [];
const levels = ["log", "info", "warn", "error", "debug", "trace"] as const;
const onWarning = (warning: Error) => printed.push(format(warning));

/** The provider answers every call with a non-retryable error, as a misconfigured or refusing provider would. */
let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub(Array.from({ length: 50 }, () => ({ status: 400, error: "request rejected" })));
  setEnv({
    AUTH_SECRET: AUTH_SECRET,
    CHAT_MODEL: "openai-compatible:stub-model",
    EXTRACTION_MODEL: "openai-compatible:stub-model",
    OPENAI_COMPATIBLE_BASE_URL: stub.baseURL,
    OPENAI_COMPATIBLE_API_KEY: PROVIDER_KEY,
  });
});
afterAll(async () => {
  restoreEnv();
  await stub.close();
});
beforeEach(() => {
  printed.length = 0;
  for (const level of levels) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      printed.push(format(...args));
    });
  }
  process.on("warning", onWarning);
});
afterEach(() => {
  vi.restoreAllMocks();
  process.off("warning", onWarning);
});

function expectNothingSensitive(secrets: string[]) {
  const log = printed.join("\n");
  for (const secret of secrets) expect(log, `the log mentions "${secret}"`).not.toContain(secret);
}

describeEachDatabase("server logs during chat, extraction and API key use", (use) => {
  let userId: string;
  beforeEach(async () => {
    routeHarness.database = use();
    userId = await createUser(use());
  });

  it("a failing provider during a chat turn is logged without the prompt (memories, messages) or the key", async () => {
    const memory = contextFor(use(), userId);
    await createMemory(memory, { content: MEMORY_TEXT });
    const { chatLanguageModel } = await import("@/lib/ai/models");
    const turn = await startChatTurn(
      { memory, model: chatLanguageModel("openai-compatible:stub-model"), modelId: "stub", contextTokens: 8_000 },
      {
        id: "logged-thread",
        trigger: "submit-message",
        message: { id: "u-secret", role: "user", parts: [{ type: "text", text: MESSAGE_TEXT }] },
      },
    );
    await expect(finalMessage(turn.response)).rejects.toThrow(/request rejected/);
    await turn.afterResponse();

    const prompt = JSON.stringify(stub.requests.at(-2));
    expect(prompt).toContain("7319-QUARTZ"); // the recalled memory was in the request the error carries
    expect(printed.join("\n")).toMatch(/the chat model failed: AI_APICallError: request rejected/);
    expect(printed.join("\n")).toMatch(/could not title the chat: AI_APICallError/);
    expectNothingSensitive([MEMORY_TEXT, "7319-QUARTZ", "ORCHID-5521", PROVIDER_KEY, AUTH_SECRET]);
  });

  it("a failing extraction run on the queue is logged without the transcript or the key", async () => {
    await addExchange(use(), userId, "extracted-thread", ["u1", "user", MESSAGE_TEXT], ["a1", "assistant", "Noted."]);
    const queue = await JobQueue.open(use(), { retryLimit: 0, pollingIntervalSeconds: 0.5 });
    try {
      await queue.work((data, meta) => handleExtractionJob(use(), data, meta));
      await queue.enqueue({ userId, threadId: "extracted-thread" }, 0);
      await expect
        .poll(
          async () => {
            const [run] = await use()
              .unbound.db.select({ status: extractionRuns.status, error: extractionRuns.error })
              .from(extractionRuns)
              .where(and(eq(extractionRuns.userId, userId), eq(extractionRuns.threadId, "extracted-thread")));
            return run;
          },
          { timeout: 60_000, interval: 250 },
        )
        .toMatchObject({ status: "failed", error: expect.stringContaining("request rejected") });
    } finally {
      await queue.stop(5_000);
    }
    expect(JSON.stringify(stub.requests.at(-1))).toContain("ORCHID-5521");
    expectNothingSensitive(["ORCHID-5521", "locker code", PROVIDER_KEY, AUTH_SECRET]);
  });

  it("API key use, including a request that fails inside the database, logs neither the key nor the content", async () => {
    const { key } = await createApiKey(bindingFor(use(), userId), { name: "logged", scopes: ["read", "write"] });
    const created = await call(collection.POST, {
      method: "POST",
      body: { content: MEMORY_TEXT },
      headers: bearer(key),
    });
    expect(created.status).toBe(201);
    const found = await call(search, {
      method: "POST",
      path: "/api/v1/memories/search",
      body: { query: "locker code" },
      headers: bearer(key),
    });
    expect(found.json.results[0].memory.text).toBe(MEMORY_TEXT);

    // A query that Postgres refuses with an unmapped error: Drizzle's error message lists the parameters.
    const failure = await use()
      .unbound.db.execute(sql`select ${MEMORY_TEXT}::uuid, ${key}::text`)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(String((failure as Error).message)).toContain(MEMORY_TEXT);
    expect(toErrorResponse(failure).status).toBe(500);
    expect(printed.join("\n")).toMatch(/API request failed: DrizzleQueryError ← /);
    expectNothingSensitive([MEMORY_TEXT, "7319-QUARTZ", key, key.slice(3), AUTH_SECRET]);
  });
});

describe("error descriptions", () => {
  const leaky = () =>
    Object.assign(new Error("Bad Request"), {
      name: "AI_APICallError",
      requestBodyValues: { messages: [{ role: "user", content: MESSAGE_TEXT }] },
      responseBody: `{"echo":"${MEMORY_TEXT}"}`,
    });

  it("keeps the class, the start of the message and the causes, never the properties", () => {
    const wrapped = new Error("outer failure", { cause: leaky() });
    expect(describeError(wrapped)).toBe("Error: outer failure ← AI_APICallError: Bad Request");
    expect(describeError(new Error("x".repeat(500)))).toHaveLength("Error: ".length + 201);
    expect(describeError("a string")).toBe("non-error value (string)");
    const rejected = Object.assign(new Error(`invalid input syntax for type uuid: "${MEMORY_TEXT}"`), {
      code: "22P02",
    });
    expect(describeError(rejected)).toBe('Error: [22P02] invalid input syntax for type uuid: "…"');
    const authjs = Object.assign(new Error("Read more at https://errors.authjs.dev#callbackrouteerror"), {
      name: "CallbackRouteError",
      cause: { err: new TypeError("fetch failed"), provider: "github" },
    });
    expect(describeError(authjs)).toMatch(/^CallbackRouteError: .* ← TypeError: fetch failed$/);
    expect(describeErrorWithStack(leaky())).toMatch(/^AI_APICallError: Bad Request\n\s+at /);
  });

  it("makes the console write one JSON object a line, with errors a framework or library prints by itself redacted", () => {
    const lines: string[] = [];
    const target = { error: (...args: unknown[]) => lines.push(format(...args)) } as unknown as Console;
    for (const level of levels) if (level !== "error") target[level] = target.error;
    structureConsole(target);
    structureConsole(target);
    target.error("⨯", leaky());
    withLogFields({ job_id: "job-7" }, () => target.warn(leaky(), { digest: "123" }));
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => !line.includes("\n"))).toBe(true);
    const [first, second] = lines.map((line) => JSON.parse(line));
    expect(first).toMatchObject({
      level: "error",
      msg: expect.stringMatching(/^⨯ AI_APICallError: Bad Request\n\s+at /),
    });
    expect(second).toMatchObject({ level: "warn", job_id: "job-7" });
    expect(lines.join("\n")).not.toContain("ORCHID-5521");
    expect(lines.join("\n")).not.toContain("7319-QUARTZ");
  });
});

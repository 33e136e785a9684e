import "../support/route-mocks";
import { format } from "node:util";
import { APICallError } from "ai";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { extractionRuns } from "@/lib/db/schema";
import { logFailedAttempt, recentFailedAttempts, structureConsole } from "@/lib/log";
import { createMemory } from "@/lib/memory/store";
import { JobQueue } from "@/lib/server/queue";
import { systemStatus } from "@/lib/server/system-status";
import { contextFor, createUser } from "../memory/support";
import { openMigratedPglite } from "../support/databases";
import { restoreEnv, setEnv } from "../support/env";
import { principalFor, routeHarness } from "../support/route-harness";

const { default: SystemPage } = await import("@/app/(console)/memories/system/page");

const MEMORY_TEXT = "The spare key is under the blue heron statue";
const RUN_ERROR = "manager said: the spare key is under the blue heron statue";

let database: Database;
let queue: JobQueue;
let userId: string;
const isThisClass = (entry: { context: string; error: string; status?: number }) =>
  entry.context === "memory extraction attempt failed" && entry.error === "AI_APICallError" && entry.status === 503;

beforeAll(async () => {
  // Named, never called: the backlog counts memories without a vector for it.
  setEnv({ EMBEDDING_MODEL: "openai-compatible:embedder", OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1" });
  database = await openMigratedPglite();
  routeHarness.database = database;
  queue = await JobQueue.open(database, { pollingIntervalSeconds: 60 });
  userId = await createUser(database);
  await createMemory(contextFor(database, userId), { content: MEMORY_TEXT });
  await queue.enqueue({ userId, threadId: "later" }, 3_600_000);
  await database.unbound.db.insert(extractionRuns).values({
    userId,
    threadId: "t1",
    namespace: ["users", userId],
    status: "failed",
    fromPosition: 0,
    throughPosition: 2,
    error: RUN_ERROR,
  });
  const unavailable = new APICallError({
    message: `Service Unavailable: ${MEMORY_TEXT}`,
    url: "http://provider.test/v1/chat/completions",
    requestBodyValues: { prompt: MEMORY_TEXT },
    statusCode: 503,
  });
  const lines: string[] = [];
  const target = { error: (...args: unknown[]) => lines.push(format(...args)) } as unknown as Console;
  for (const level of ["warn", "info", "log", "debug", "trace"] as const) target[level] = target.error;
  structureConsole(target);
  logFailedAttempt("memory extraction attempt failed", unavailable, { user: userId, run: "r1" });
  target.error("could not queue overdue webhook deliveries: TypeError: fetch failed");
});
afterAll(async () => {
  await queue.stop(5_000);
  await database.close();
  restoreEnv();
});

it("gathers queue depths, the embedding backlog, failed runs by error class and recent problems", async () => {
  const status = await systemStatus(database, queue);
  expect(status.queues).toContainEqual({ queue: "memory-extraction", state: "created", jobs: 1 });
  expect(status.embeddingBacklog).toBe(1);
  expect(status.failedRuns).toContainEqual({ kind: "extraction", failed: 1, latest: expect.any(Date) });
  // The attempts are the process's (its latest few): files that ran before this one in its worker may have logged
  // some of the same class. The class counts all of them, and this file's attempt is its latest.
  const [latest] = recentFailedAttempts();
  expect(status.failureClasses.filter(isThisClass)).toEqual([
    {
      context: "memory extraction attempt failed",
      error: "AI_APICallError",
      status: 503,
      attempts: recentFailedAttempts().filter(isThisClass).length,
      latest: latest?.time,
    },
  ]);
  expect(status.problems.map((problem) => problem.msg)).toContain(
    "could not queue overdue webhook deliveries: TypeError: fetch failed",
  );
});

it("shows it to admins without any user's text, and is a 404 for everyone else", async () => {
  routeHarness.principal = principalFor(userId, "admin");
  const html = renderToStaticMarkup((await SystemPage()) as Parameters<typeof renderToStaticMarkup>[0]);
  expect(html).toContain("AI_APICallError");
  expect(html).toContain("1 memory waits for a vector");
  expect(html).toContain("could not queue overdue webhook deliveries");
  for (const text of [MEMORY_TEXT, RUN_ERROR, "heron"]) expect(html).not.toContain(text);
  routeHarness.principal = principalFor(userId);
  await expect(SystemPage()).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
});

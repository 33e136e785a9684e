import type { ChildProcess } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { extractionRuns } from "@/lib/db/schema";
import { failedRunThread } from "@/lib/memory/extraction";
import { ABANDONED_RUN_ERROR } from "@/lib/memory/extraction/runs";
import { listMemories } from "@/lib/memory/store";
import { JobQueue, type QueueOptions } from "@/lib/server/queue";
import { contextFor, createUser } from "../memory/support";
import { openFreshPostgres } from "../support/databases";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub";
import { startWorkerProcess, until } from "../support/worker-process";
import { addExchange } from "./support";

const adminUrl = process.env.TEST_DATABASE_URL;
const PROJECTS = ["atlas", "borealis", "cygnus", "draco", "eridanus"];
const HOSTS = ["kestrel", "lynx", "marten", "narwhal"];
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startWorker(database: Database, env: Record<string, string> = {}) {
  const worker = startWorkerProcess(database, env);
  children.push(worker.child);
  return worker;
}

async function freshDatabase(options: QueueOptions = {}) {
  const database = await openFreshPostgres(adminUrl!);
  const queue = await JobQueue.open(database, { heartbeatSeconds: 10, retryDelaySeconds: 1, ...options });
  cleanups.push(async () => {
    await queue.stop(2_000);
    await database.close();
  });
  return { database, queue };
}

describe.skipIf(!adminUrl)("standalone workers on PostgreSQL", () => {
  it("a worker killed mid-run: the job is retried elsewhere and ends as one clean run", async () => {
    const { database, queue } = await freshDatabase();
    const userId = await createUser(database);
    await addExchange(database, userId, "crash", ["c1", "user", "My name is Ada and I fly gliders"]);
    const ops = {
      ops: [
        {
          op: "insert",
          kind: "memory",
          text: "User's name is Ada",
          messageId: "c1",
          quote: "My name is Ada",
        },
        {
          op: "insert",
          kind: "memory",
          text: "User flies gliders",
          messageId: "c1",
          quote: "I fly gliders",
        },
      ],
    };
    const stub: OpenAIStub = await startOpenAIStub([
      { text: JSON.stringify(ops), delayMs: 120_000 },
      { text: JSON.stringify(ops) },
    ]);
    cleanups.push(() => stub.close());
    const env = { EXTRACTION_MODEL: "openai-compatible:manager", OPENAI_COMPATIBLE_BASE_URL: stub.baseURL };

    const first = startWorker(database, env);
    await first.ready;
    await queue.enqueue({ userId, threadId: "crash" }, 0);
    await until(async () => stub.requests.length === 1, 30_000);
    first.child.kill("SIGKILL");

    const runs = () =>
      database.unbound.db
        .select()
        .from(extractionRuns)
        .where(and(eq(extractionRuns.userId, userId)));
    expect(await runs()).toMatchObject([{ status: "running", attempts: 1 }]);
    expect((await listMemories(contextFor(database, userId), {})).memories).toHaveLength(0);

    const second = startWorker(database, env);
    await second.ready;
    const [done] = await until(async () => {
      const rows = await runs();
      return rows[0]?.status === "succeeded" && rows;
    }, 60_000);
    expect(done).toMatchObject({ status: "succeeded", attempts: 2, fromPosition: 0, throughPosition: 1 });
    expect(await runs()).toHaveLength(1);
    const texts = (await listMemories(contextFor(database, userId), {})).memories.map((m) => m.text).sort();
    expect(texts).toEqual(["User flies gliders", "User's name is Ada"]);
  }, 150_000);

  it("a job whose last attempt dies with its worker is given up, and its run shows failed and can be retried", async () => {
    // No retries: the first killed attempt is the last one.
    const { database, queue } = await freshDatabase({ retryLimit: 0 });
    const userId = await createUser(database);
    await addExchange(database, userId, "doomed", ["d1", "user", "My name is Ada"]);
    const stub = await startOpenAIStub([{ text: JSON.stringify({ ops: [] }), delayMs: 120_000 }]);
    cleanups.push(() => stub.close());
    const env = { EXTRACTION_MODEL: "openai-compatible:manager", OPENAI_COMPATIBLE_BASE_URL: stub.baseURL };

    const doomed = startWorker(database, env);
    await doomed.ready;
    await queue.enqueue({ userId, threadId: "doomed" }, 0);
    await until(async () => stub.requests.length === 1, 30_000);
    doomed.child.kill("SIGKILL");
    const survivor = startWorker(database, env);
    await survivor.ready;

    const [run] = await until(async () => {
      const rows = await database.unbound.db.select().from(extractionRuns).where(eq(extractionRuns.userId, userId));
      return rows[0]?.status === "failed" && rows;
    }, 60_000);
    expect(run).toMatchObject({ status: "failed", attempts: 1, error: ABANDONED_RUN_ERROR });
    expect(await failedRunThread(contextFor(database, userId), run!.id)).toBe("doomed");
    expect(stub.requests).toHaveLength(1);
  }, 150_000);

  it("two workers share the jobs and run each exactly once", async () => {
    const { database, queue } = await freshDatabase();
    const workers = [startWorker(database), startWorker(database)];
    await Promise.all(workers.map((worker) => worker.ready));
    const userIds = await Promise.all(Array.from({ length: 4 }, () => createUser(database)));
    const threads: Array<{ userId: string; threadId: string }> = [];
    for (const [u, userId] of userIds.entries()) {
      for (let t = 0; t < 5; t++) {
        const threadId = `w-${u}-${t}`;
        await addExchange(database, userId, threadId, [
          `${threadId}-m`,
          "user",
          `Remember that project ${PROJECTS[t]} runs on ${HOSTS[u]}`,
        ]);
        threads.push({ userId, threadId });
      }
    }
    await Promise.all(threads.map((thread) => queue.enqueue(thread, 0)));

    const rows = await until(async () => {
      const all = await database.unbound.db.select().from(extractionRuns);
      return all.length === threads.length && all.every((run) => run.status === "succeeded") && all;
    }, 90_000);
    expect(new Set(rows.map((run) => `${run.userId}/${run.threadId}`)).size).toBe(threads.length);
    expect(rows.every((run) => run.attempts === 1)).toBe(true);
    for (const [u, userId] of userIds.entries()) {
      const texts = (await listMemories(contextFor(database, userId), {})).memories.map((m) => m.text).sort();
      expect(texts).toEqual(PROJECTS.map((project) => `Project ${project} runs on ${HOSTS[u]}`).sort());
    }
  }, 150_000);
});

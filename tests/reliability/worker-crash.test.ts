import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { parseExtractionPrompt } from "@/lib/memory/extraction";
import {
  CONSOLIDATION_DAILY_QUEUE,
  EXTRACTION_QUEUE,
  GUEST_EXPIRY_QUEUE,
  JobQueue,
  WEBHOOK_PRUNE_QUEUE,
} from "@/lib/server/queue";
import { addExchange } from "../extraction/support";
import { createUser } from "../memory/support";
import { openFreshPostgres } from "../support/databases";
import { type OpenAIStub, type StubReply, startOpenAIStub } from "../support/openai-stub";
import { startWorkerProcess, until, type WorkerProcess } from "../support/worker-process";

const adminUrl = process.env.TEST_DATABASE_URL;

// Ten kills give each planned kill one turn: five in the model call and one at each of the five delays after the reply.
const KILLS = 10;
const USERS = 4;
const THREADS_PER_USER = 12;
/** Long enough that a worker is usually inside a model call, short enough that 48 runs finish in a minute. */
const MODEL_DELAY_MS = 1_200;
/**
 * The queue gives a job 5 attempts and then dead-letters it (a job that crashes every worker it meets is a poison
 * pill), so no job is aimed at more often than this; a kill landing after a job completed may also hit the next one.
 */
const MAX_KILLS_PER_JOB = 2;
const APPLY_KILL_DELAYS_MS = [0, 10, 20, 30, 40];

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Exchange {
  userId: string;
  threadId: string;
  facts: string[];
}

/** The memory manager the workers call: an insert for every sentence of every new user message, after a delay. */
function manager(body: Record<string, unknown>): StubReply {
  const messages = body.messages as Array<{ role: string; content: string }>;
  const input = parseExtractionPrompt(messages.at(-1)!.content) as {
    messages: Array<{ id: string; role: string; text: string }>;
  };
  const ops = input.messages
    .filter((message) => message.role === "user")
    .flatMap((message) =>
      message.text.split(/(?<=\.)\s+/).map((quote) => ({
        op: "insert",
        kind: "memory",
        text: quote.replace(/\.$/, ""),
        messageId: message.id,
        quote,
      })),
    );
  return { text: JSON.stringify({ ops }), delayMs: MODEL_DELAY_MS };
}

/** Which thread a manager request is about: its user messages are named `<thread>-u`. */
function threadOf(body: Record<string, unknown>): string {
  const messages = body.messages as Array<{ role: string; content: string }>;
  const input = parseExtractionPrompt(messages.at(-1)!.content) as { messages: Array<{ id: string }> };
  return input.messages[0]!.id.replace(/-u$/, "");
}

type Phase = "model call" | "apply";

interface KillPlan {
  /** Kill on this manager request of the worker's life (1-based), or a later one if that job was killed enough. */
  request: number;
  phase: Phase;
  /** How long after the request arrives (model call) or after the reply is sent (apply) the kill comes. */
  delayMs: number;
  seen: number;
  thread?: string;
}

/**
 * One worker slot: a worker on its own stub endpoint, killed with SIGKILL on its n-th manager request (part-way into
 * the model call, or the moment the reply is sent, while the run is being applied), then restarted; after the last
 * kill the slot's worker stays up to finish the queue.
 */
class WorkerSlot {
  private worker?: WorkerProcess;
  private plan?: KillPlan;
  /** The thread whose run the last kill interrupted. */
  private killed?: string;
  stub!: OpenAIStub;

  constructor(
    private readonly database: Database,
    private readonly schedule: KillSchedule,
  ) {}

  async open() {
    this.stub = await startOpenAIStub(manager, {
      onRequest: (body) => this.onRequest(body),
      onReplied: (body) => this.onReplied(body),
    });
    cleanups.push(() => this.stub.close());
  }

  async run() {
    for (;;) {
      const worker = startWorkerProcess(this.database, {
        EXTRACTION_MODEL: "openai-compatible:manager",
        OPENAI_COMPATIBLE_BASE_URL: this.stub.baseURL,
        // One job at a time, so each kill costs exactly the attempt it interrupts (the accounting below).
        EXTRACTION_CONCURRENCY: "1",
      });
      this.worker = worker;
      cleanups.push(async () => {
        worker.child.kill("SIGKILL");
        await worker.exited;
      });
      await worker.ready;
      if (this.schedule.done()) return;
      this.plan = { ...this.schedule.next(), seen: 0 };
      await Promise.race([worker.exited, this.schedule.finished]);
      // The kills are done and this worker is alive: it stays up to finish the queue.
      if (!worker.child.killed && worker.child.exitCode === null) return;
      expect(await worker.exited, `a worker died on its own:\n${worker.output()}`).toBe("SIGKILL");
      await this.schedule.classify(this.database, this.killed!);
    }
  }

  private onRequest(body: Record<string, unknown>) {
    const plan = this.plan;
    if (!plan || plan.thread || ++plan.seen < plan.request) return;
    const thread = threadOf(body);
    if (!this.schedule.mayKill(thread)) return;
    plan.thread = thread;
    if (plan.phase === "model call") setTimeout(() => this.kill(plan), plan.delayMs);
  }

  private onReplied(body: Record<string, unknown>) {
    const plan = this.plan;
    if (plan?.phase === "apply" && plan.thread === threadOf(body)) setTimeout(() => this.kill(plan), plan.delayMs);
  }

  private kill(plan: KillPlan) {
    if (this.plan !== plan || this.schedule.done()) return;
    this.plan = undefined;
    this.killed = plan.thread;
    this.worker!.child.kill("SIGKILL");
    this.schedule.record(plan.thread!, plan.phase);
  }
}

/** The shared plan of kills across slots: which request of a worker's life to kill it on, and in which phase. */
class KillSchedule {
  readonly killsPerThread = new Map<string, number>();
  readonly byPhase: Record<Phase, number> = { "model call": 0, apply: 0 };
  private count = 0;
  private planned = 0;
  private resolveFinished!: () => void;
  readonly finished = new Promise<void>((resolve) => (this.resolveFinished = resolve));

  done() {
    return this.count >= KILLS;
  }

  next(): Omit<KillPlan, "seen"> {
    const n = this.planned++;
    const request = (n % 3) + 1;
    if (n % 2 === 0) return { request, phase: "model call", delayMs: MODEL_DELAY_MS / 3 };
    // Spread over the ~50 ms in which the worker validates the ops, commits the run and completes the job.
    return { request, phase: "apply", delayMs: APPLY_KILL_DELAYS_MS[Math.floor(n / 2) % APPLY_KILL_DELAYS_MS.length]! };
  }

  mayKill(thread: string) {
    return (this.killsPerThread.get(thread) ?? 0) < MAX_KILLS_PER_JOB;
  }

  record(thread: string, phase: Phase) {
    this.killsPerThread.set(thread, (this.killsPerThread.get(thread) ?? 0) + 1);
    this.byPhase[phase]++;
    this.count++;
    if (this.done()) this.resolveFinished();
  }

  get kills() {
    return this.count;
  }

  readonly landed: Record<Landing, number> = {
    "before the run committed": 0,
    "after the commit, before the job completed": 0,
    "after the job completed": 0,
  };

  /** Where the kill of a worker running `thread`'s job landed, read while nothing else can touch that job. */
  async classify(database: Database, thread: string) {
    const [row] = await database.unbound.rows<{ extracted_through: number; state: string | null }>(sql`
      select t.extracted_through,
        (select j.state from pgboss.job j
          where j.name = ${EXTRACTION_QUEUE} and j.singleton_key = t.user_id || ':' || t.id
          order by j.created_on desc limit 1) as state
      from threads t where t.id = ${thread}`);
    const landing: Landing =
      row!.extracted_through === 0
        ? "before the run committed"
        : row!.state === "completed"
          ? "after the job completed"
          : "after the commit, before the job completed";
    this.landed[landing]++;
  }
}

type Landing = "before the run committed" | "after the commit, before the job completed" | "after the job completed";

async function seed(database: Database): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  for (let u = 0; u < USERS; u++) {
    const userId = await createUser(database);
    for (let t = 0; t < THREADS_PER_USER; t++) {
      const n = u * THREADS_PER_USER + t;
      const facts = [`Locker ${n} holds the spare key`, `Locker ${n} is on floor ${(n % 7) + 1}`];
      const threadId = `crash-${n}`;
      await addExchange(
        database,
        userId,
        threadId,
        [`${threadId}-u`, "user", facts.map((fact) => `${fact}.`).join(" ")],
        [`${threadId}-a`, "assistant", "Noted."],
      );
      exchanges.push({ userId, threadId, facts });
    }
  }
  return exchanges;
}

describe.skipIf(!adminUrl)("workers killed with SIGKILL over and over (PostgreSQL only: set TEST_DATABASE_URL)", () => {
  it(`${KILLS} kills mid-run: every exchange is extracted exactly once, nothing half-applied, no job stuck`, async () => {
    const startedAt = Date.now();
    const database = await openFreshPostgres(adminUrl!);
    cleanups.push(() => database.close());
    // Creates the queue first, so its policy is the one the workers find: the 10 s heartbeat pg-boss allows at least,
    // and short retry delays.
    const queue = await JobQueue.open(database, { heartbeatSeconds: 10, retryDelaySeconds: 1 });
    cleanups.push(() => queue.stop(2_000));

    const exchanges = await seed(database);
    await Promise.all(exchanges.map(({ userId, threadId }) => queue.enqueue({ userId, threadId }, 0)));

    const schedule = new KillSchedule();
    const slots = [new WorkerSlot(database, schedule), new WorkerSlot(database, schedule)];
    await Promise.all(slots.map((slot) => slot.open()));
    const running = Promise.all(slots.map((slot) => slot.run()));
    // Each kill costs a worker's boot, which takes seconds on a loaded two-core machine: the limit is for a hang.
    await until(
      () => schedule.done(),
      300_000,
      () => `${KILLS} kills (got ${schedule.kills})`,
    );
    await running;
    const killsDoneAt = Date.now();

    // Every job ends completed: none left active on a dead worker, retrying, failed or dead-lettered. The workers also
    // run the schedules (lib/server/queue.ts): when the test spans minute 17 of an hour, a guest-expiry tick and
    // pg-boss's own send of it join the jobs. Those are not what the workers were killed running: they are left out.
    const jobStates = async () =>
      database.unbound.rows<{ name: string; state: string; count: number }>(
        sql`select name, state, count(*)::int as count from pgboss.job
            where name not in (${GUEST_EXPIRY_QUEUE}, ${WEBHOOK_PRUNE_QUEUE}, ${CONSOLIDATION_DAILY_QUEUE})
              and not starts_with(name, '__pgboss__')
            group by name, state order by name, state`,
      );
    let lastStates: unknown = [];
    await until(
      async () => {
        const states = await jobStates();
        lastStates = states;
        return states.length === 1 && states[0]!.state === "completed" && states;
      },
      120_000,
      () => `every extraction job to complete (jobs by state: ${JSON.stringify(lastStates)})`,
    );
    expect(await jobStates()).toEqual([{ name: EXTRACTION_QUEUE, state: "completed", count: exchanges.length }]);

    // One successful run per exchange, which applied both facts and rejected nothing.
    const runs = await database.unbound.rows<{
      id: string;
      user_id: string;
      thread_id: string;
      status: string;
      from_position: number;
      through_position: number;
      attempts: number;
      ops_applied: Array<{ op: string; memoryId: string; text: string }>;
      ops_rejected: unknown[];
    }>(sql`select * from extraction_runs`);
    expect(runs).toHaveLength(exchanges.length);
    const runOf = new Map(runs.map((run) => [`${run.user_id}/${run.thread_id}`, run]));
    expect(runOf.size).toBe(exchanges.length);
    for (const { userId, threadId, facts } of exchanges) {
      const run = runOf.get(`${userId}/${threadId}`);
      expect(run, threadId).toMatchObject({ status: "succeeded", from_position: 0, through_position: 2 });
      expect(run!.ops_rejected, threadId).toEqual([]);
      expect(run!.ops_applied.map((op) => op.text).sort(), threadId).toEqual([...facts].sort());
    }

    // Every fact stored exactly once, written by the run that records it, and every cursor at the thread's end.
    const memories = await database.unbound.rows<{
      id: string;
      user_id: string;
      text: string;
      run_id: string;
      status: string;
    }>(sql`select id, user_id, text, run_id, status from memories`);
    const expected = exchanges.flatMap(({ userId, facts }) => facts.map((fact) => `${userId}/${fact}`)).sort();
    expect(memories.map((memory) => `${memory.user_id}/${memory.text}`).sort()).toEqual(expected);
    expect(memories.every((memory) => memory.status === "active")).toBe(true);
    const appliedBy = new Map(runs.flatMap((run) => run.ops_applied.map((op) => [op.memoryId, run.id] as const)));
    for (const memory of memories) expect(memory.run_id).toBe(appliedBy.get(memory.id));
    const cursors = await database.unbound.rows<{ extracted_through: number }>(
      sql`select extracted_through from threads`,
    );
    expect(cursors.map((thread) => thread.extracted_through)).toEqual(exchanges.map(() => 2));

    const retried = runs.filter((run) => run.attempts > 1).length;
    // Each kill before a commit cost its run one attempt; a kill after the commit left nothing for the retry to do.
    const repeatedAttempts = runs.reduce((sum, run) => sum + run.attempts - 1, 0);
    console.log(
      `worker crash test: ${exchanges.length} jobs, ${schedule.kills} SIGKILLs ` +
        `(${schedule.byPhase["model call"]} in the model call, ${schedule.byPhase.apply} 0-40 ms after the reply; ` +
        `landed: ${JSON.stringify(schedule.landed)}) ` +
        `on ${schedule.killsPerThread.size} distinct jobs; ${runs.length} runs, ${retried} of them retried, ` +
        `max attempts ${Math.max(...runs.map((run) => run.attempts))}; ${memories.length} memories for ` +
        `${expected.length} facts; kills took ${Math.round((killsDoneAt - startedAt) / 1000)} s, ` +
        `all ${Math.round((Date.now() - startedAt) / 1000)} s`,
    );
    // A kill after the job completed may have hit the next job the worker had just begun.
    expect(repeatedAttempts).toBeGreaterThanOrEqual(schedule.landed["before the run committed"]);
    expect(repeatedAttempts).toBeLessThanOrEqual(
      schedule.landed["before the run committed"] + schedule.landed["after the job completed"],
    );
  }, 540_000);
});

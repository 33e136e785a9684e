import { fromPglite, type JobWithMetadata, PgBoss } from "pg-boss";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { logFailure } from "@/lib/log";
import { runJob, traced } from "./job-attempt";

/** The schema pg-boss keeps its tables in, beside the app's. */
export const QUEUE_SCHEMA = "pgboss";
export const EXTRACTION_QUEUE = "memory-extraction";
export const EXTRACTION_DEAD_LETTERS = "memory-extraction-dead";
/** One job per user whose memories need vectors: at most one waiting and one running per user (pg-boss `stately`). */
export const EMBEDDING_QUEUE = "memory-embedding";

/** One job per attempt of one webhook delivery; the job carries ids only, the payload stays in the app's tables. */
export const WEBHOOK_QUEUE = "webhook-delivery";

/**
 * Webhook attempts one worker process runs at once, and at most how many of them one user's deliveries hold. Jobs
 * carry their user as the pg-boss group, and the per-user cap is pg-boss `localGroupConcurrency` (exact within the
 * process; each worker process shares its own slots): one user's backlog, or a receiver that answers only at the
 * timeout, holds at most its share, and the other slots go to whoever else has deliveries waiting. Only when
 * WEBHOOK_SLOTS / WEBHOOK_SLOTS_PER_USER users have backlogs at once does a further user wait for one of them.
 */
export const WEBHOOK_SLOTS = 8;
export const WEBHOOK_SLOTS_PER_USER = 2;

/** Hourly: deletes the guests idle past GUEST_TTL_DAYS (lib/account/guest-expiry.ts). */
export const GUEST_EXPIRY_QUEUE = "guest-expiry";
/** At minute 17 of every hour; pg-boss sends one job per tick however many processes schedule it. */
const GUEST_EXPIRY_CRON = "17 * * * *";

/** Daily: deletes finished webhook deliveries past WEBHOOK_DELIVERY_RETENTION_DAYS (lib/memory/webhooks/retention.ts). */
export const WEBHOOK_PRUNE_QUEUE = "webhook-delivery-prune";
/** At 03:43 UTC every day; pg-boss sends one job per tick however many processes schedule it. */
const WEBHOOK_PRUNE_CRON = "43 3 * * *";

/** One waiting job per user: feedback arriving while it waits pushes its start back (see enqueueOptimizer). */
export const OPTIMIZER_QUEUE = "instructions-optimizer";

/**
 * One consolidation job per user at a time, waiting or running (pg-boss `stately` keyed by user): two runs of one
 * user never overlap, whichever process takes them (docs/memory-model.md, "Consolidation").
 */
export const CONSOLIDATION_QUEUE = "memory-consolidation";
/** Daily: queues a consolidation run for every user whose memories changed that day. */
export const CONSOLIDATION_DAILY_QUEUE = "memory-consolidation-daily";
/** At 04:23 UTC every day; pg-boss sends one job per tick however many processes schedule it. */
const CONSOLIDATION_DAILY_CRON = "23 4 * * *";

/**
 * How often an idle worker polls where other processes send jobs too (PostgreSQL, Citus): their jobs wake no worker
 * of this one.
 */
const SHARED_POLL_SECONDS = 1;
/**
 * How often an idle worker polls on PGlite, where no other process can send a job: this process's sends wake its
 * workers, and the poll is left to retries, scheduled ticks, dead letters and jobs sent for later before a restart,
 * each run at most this long after it comes due. Polling every second, the default server's twenty-odd idle workers
 * kept 5–7% of a core busy doing nothing (docs/performance.md, "What keeps search fast").
 */
const ONLY_PROCESS_POLL_SECONDS = 10;
const WAKE_SLACK_MS = 5;

export interface ConsolidationJobData {
  userId: string;
  /** The run a person asked for, recorded before the job was queued. */
  runId?: string;
  trigger: "manual" | "after_extraction" | "daily";
}

export interface OptimizerJobData {
  userId: string;
}

export interface WebhookJobData {
  userId: string;
  deliveryId: string;
  /** Which attempt of the delivery this job makes (1 for the first). */
  attempt: number;
  /** The delivery's place in its user's backlog (ScheduledDelivery.backlog): sets the job's priority, not carried. */
  backlog?: number;
}

export interface EmbeddingJobData {
  userId: string;
}

export interface ExtractionJobData {
  userId: string;
  threadId: string;
  /** Enqueued by a chat answer: read answered exchanges only (see ExtractionJob.answeredOnly). */
  answeredOnly?: boolean;
}

export interface QueueOptions {
  /** Seconds without a heartbeat after which a crashed worker's job is handed to another (pg-boss minimum: 10). */
  heartbeatSeconds?: number;
  /** Attempts after the first before a job goes to the dead-letter queue. */
  retryLimit?: number;
  /** First retry delay in seconds; later ones back off exponentially. */
  retryDelaySeconds?: number;
  /**
   * How often an idle worker polls for due jobs. This process's own sends wake its workers when their jobs come due
   * (JobQueue.#wakeAt); the poll finds the rest: other processes' jobs, retries, scheduled ticks, dead letters, and
   * jobs sent for later by this process before it restarted.
   */
  pollingIntervalSeconds?: number;
  /**
   * Extraction jobs this process runs at once (EXTRACTION_CONCURRENCY): a manager call that stalls holds one slot,
   * and the other users' runs go on in the rest.
   */
  concurrency?: number;
}

type WorkOptions = {
  batchSize: 1;
  includeMetadata: true;
  pollingIntervalSeconds: number;
  localConcurrency?: number;
  localGroupConcurrency?: number;
};

/**
 * The durable job queues in the app's own database (background extraction per thread, embedding per user): jobs
 * survive restarts and crashes, and any process can work them.
 */
export class JobQueue {
  private constructor(
    readonly boss: PgBoss,
    private readonly options: Required<QueueOptions>,
    /** PGlite: no other process can open the database, so only this one's workers start its jobs. */
    private readonly onlyProcess: boolean,
  ) {}

  static async open(database: Database, options: QueueOptions = {}): Promise<JobQueue> {
    const onlyProcess = database.connection.kind === "pglite";
    const resolved: Required<QueueOptions> = {
      heartbeatSeconds: options.heartbeatSeconds ?? 30,
      retryLimit: options.retryLimit ?? 4,
      retryDelaySeconds: options.retryDelaySeconds ?? 5,
      pollingIntervalSeconds:
        options.pollingIntervalSeconds ?? (onlyProcess ? ONLY_PROCESS_POLL_SECONDS : SHARED_POLL_SECONDS),
      concurrency: options.concurrency ?? config().EXTRACTION_CONCURRENCY,
    };
    // Look for silent workers several times per heartbeat, so a crashed worker's job moves on within ~1.2 beats.
    const checkEvery = Math.max(1, Math.floor(resolved.heartbeatSeconds / 5));
    const common = { schema: QUEUE_SCHEMA, superviseIntervalSeconds: checkEvery, monitorIntervalSeconds: checkEvery };
    const boss =
      database.connection.kind === "pglite"
        ? new PgBoss({ ...common, db: fromPglite(database.connection.client), backend: "pglite" })
        : new PgBoss({
            ...common,
            connectionString: database.connection.url,
            max: 4,
            // The queue's tables stay on a Citus coordinator. Its schema is created by one multi-statement script,
            // which Citus would otherwise send whole to the workers as DDL to propagate, where it fails.
            ...(database.kind === "citus" ? { options: "-c citus.enable_ddl_propagation=off" } : {}),
          });
    boss.on("error", (error) => logFailure("extraction queue", error));
    await boss.start();
    await boss.createQueue(EXTRACTION_DEAD_LETTERS);
    await boss.createQueue(EXTRACTION_QUEUE, {
      retryLimit: resolved.retryLimit,
      retryDelay: resolved.retryDelaySeconds,
      retryBackoff: true,
      heartbeatSeconds: resolved.heartbeatSeconds,
      deadLetter: EXTRACTION_DEAD_LETTERS,
    });
    await boss.createQueue(EMBEDDING_QUEUE, {
      policy: "stately",
      retryLimit: resolved.retryLimit,
      retryDelay: resolved.retryDelaySeconds,
      retryBackoff: true,
      heartbeatSeconds: resolved.heartbeatSeconds,
    });
    await boss.createQueue(OPTIMIZER_QUEUE, {
      retryLimit: resolved.retryLimit,
      retryDelay: resolved.retryDelaySeconds,
      retryBackoff: true,
      heartbeatSeconds: resolved.heartbeatSeconds,
    });
    await boss.createQueue(CONSOLIDATION_QUEUE, {
      policy: "stately",
      retryLimit: resolved.retryLimit,
      retryDelay: resolved.retryDelaySeconds,
      retryBackoff: true,
      heartbeatSeconds: resolved.heartbeatSeconds,
    });
    await boss.createQueue(CONSOLIDATION_DAILY_QUEUE, { policy: "singleton" });
    // Retries here cover a worker that died mid-attempt; a receiver's failure is retried by the delivery itself.
    await boss.createQueue(WEBHOOK_QUEUE, {
      retryLimit: resolved.retryLimit,
      retryDelay: resolved.retryDelaySeconds,
      retryBackoff: true,
      heartbeatSeconds: resolved.heartbeatSeconds,
    });
    await boss.createQueue(GUEST_EXPIRY_QUEUE, { policy: "singleton" });
    await boss.createQueue(WEBHOOK_PRUNE_QUEUE, { policy: "singleton" });
    return new JobQueue(boss, resolved, onlyProcess);
  }

  /**
   * Schedules extraction for a thread after `debounceMs` of quiet. A job still waiting for this thread has its start
   * pushed back instead of a second job being added, so a burst of exchanges becomes one run that reads them all.
   */
  async enqueue(job: ExtractionJobData, debounceMs: number): Promise<void> {
    const singletonKey = `${job.userId}:${job.threadId}`;
    const startAfter = new Date(Date.now() + debounceMs);
    await this.boss.upsert(EXTRACTION_QUEUE, traced(job), { singletonKey, startAfter });
    this.#wakeAt(EXTRACTION_QUEUE, singletonKey, startAfter);
  }

  /** Schedules an optimizer pass over the user's new feedback after `debounceMs` of quiet, like enqueue. */
  async enqueueOptimizer(job: OptimizerJobData, debounceMs: number): Promise<void> {
    const startAfter = new Date(Date.now() + debounceMs);
    await this.boss.upsert(OPTIMIZER_QUEUE, traced(job), { singletonKey: job.userId, startAfter });
    this.#wakeAt(OPTIMIZER_QUEUE, job.userId, startAfter);
  }

  /**
   * Queues a consolidation run for the user after `delayMs`. One already waiting covers it (its run, when it has
   * none of its own, takes the oldest run waiting: lib/memory/consolidation/runs.ts).
   */
  async enqueueConsolidation(job: ConsolidationJobData, delayMs = 0): Promise<void> {
    const startAfter = delayMs > 0 ? new Date(Date.now() + delayMs) : undefined;
    const sent = await this.boss.send(CONSOLIDATION_QUEUE, job, {
      singletonKey: job.userId,
      ...(startAfter ? { startAfter } : {}),
    });
    // Refused, the send leaves the job already waiting, and that job's wake, as they were.
    if (sent) this.#wakeAt(CONSOLIDATION_QUEUE, job.userId, startAfter);
  }

  async workConsolidation(handle: (data: ConsolidationJobData, meta: AttemptMeta) => Promise<void>) {
    return this.#workEach<ConsolidationJobData>(CONSOLIDATION_QUEUE, this.options.concurrency, (job) =>
      handle(job.data, attemptMeta(job)),
    );
  }

  /** Runs `handle` once a day in whichever worker process takes the tick. */
  async workDailyConsolidation(handle: () => Promise<void>) {
    await this.boss.schedule(CONSOLIDATION_DAILY_QUEUE, CONSOLIDATION_DAILY_CRON);
    return this.#workEach<object>(CONSOLIDATION_DAILY_QUEUE, 1, () => handle());
  }

  async workOptimizer(handle: (data: OptimizerJobData, meta: AttemptMeta) => Promise<void>) {
    return this.#workEach<OptimizerJobData>(OPTIMIZER_QUEUE, 1, (job) => handle(job.data, attemptMeta(job)));
  }

  /**
   * Processes jobs, `concurrency` at once (one per pg-boss worker loop); `handle` gets whether this attempt is the
   * last before dead-lettering.
   */
  async work(handle: (data: ExtractionJobData, meta: AttemptMeta) => Promise<void>) {
    return this.#workEach<ExtractionJobData>(EXTRACTION_QUEUE, this.options.concurrency, (job) =>
      handle(job.data, attemptMeta(job)),
    );
  }

  /**
   * Asks for the user's missing vectors to be computed. A job already waiting for the user covers it; one already
   * running may have passed the new memory, so one more may wait behind it.
   */
  async scheduleEmbedding(userId: string): Promise<void> {
    // Where only this process starts jobs, one it sent that no worker has started yet is certain to be waiting, and it
    // reads the user's memories when it starts: sending another would only be refused (a statement per memory write).
    const waiting = this.onlyProcess ? this.#embeddingWaiting.get(userId) : undefined;
    if (waiting) return waiting;
    const sent = this.#sendEmbedding(userId);
    if (!this.onlyProcess) return sent;
    this.#embeddingWaiting.set(userId, sent);
    return sent.catch((error: unknown) => {
      if (this.#embeddingWaiting.get(userId) === sent) this.#embeddingWaiting.delete(userId);
      throw error;
    });
  }

  async #sendEmbedding(userId: string): Promise<void> {
    await this.boss.send(EMBEDDING_QUEUE, traced({ userId } satisfies EmbeddingJobData), { singletonKey: userId });
    // A new memory is found by meaning as soon as its vector is computed (bench/suites/http.ts times
    // write-to-searchable).
    this.#wakeAt(EMBEDDING_QUEUE, userId, undefined);
  }

  /** Per user, the send of an embedding job no worker of this process has started since (onlyProcess). */
  readonly #embeddingWaiting = new Map<string, Promise<void>>();

  async workEmbeddings(handle: (data: EmbeddingJobData) => Promise<void>) {
    await this.#workEach<EmbeddingJobData>(EMBEDDING_QUEUE, 1, (job) => {
      // From here on a memory written is one this run may have missed: the next write sends a job again.
      this.#embeddingWaiting.delete(job.data.userId);
      return handle(job.data);
    });
  }

  /** Queues attempts of webhook deliveries, each not before `startAfter` (now when absent), grouped by user. */
  async sendWebhookDeliveries(jobs: readonly WebhookJobData[], startAfter?: Date): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(
      WEBHOOK_QUEUE,
      jobs.map(({ backlog, ...data }) => ({
        data: traced(data),
        group: { id: data.userId },
        // pg-boss serves higher priorities first: a delivery's place in its user's backlog, negated, makes the users
        // with something waiting take turns (lib/memory/webhooks/outbox.ts). Retries and the sweep's re-queues keep 0.
        ...(backlog ? { priority: -Math.min(backlog, 2 ** 31 - 1) } : {}),
        ...(startAfter ? { startAfter } : {}),
      })),
    );
    // No more workers than may take these jobs at once: the rest would claim a job of a user at their limit and hand
    // it back.
    const users = new Set(jobs.map((job) => job.userId)).size;
    this.#wakeAt(WEBHOOK_QUEUE, undefined, startAfter, Math.min(jobs.length, users * WEBHOOK_SLOTS_PER_USER));
  }

  /** Works webhook delivery attempts, WEBHOOK_SLOTS at once and at most WEBHOOK_SLOTS_PER_USER of one user's. */
  async workWebhookDeliveries(handle: (data: WebhookJobData) => Promise<void>) {
    return this.#workEach<WebhookJobData>(WEBHOOK_QUEUE, WEBHOOK_SLOTS, (job) => handle(job.data), {
      localGroupConcurrency: WEBHOOK_SLOTS_PER_USER,
    });
  }

  /** Runs `handle` every hour in whichever worker process takes the tick (a missed tick is made up by the next). */
  async workGuestExpiry(handle: () => Promise<void>) {
    await this.boss.schedule(GUEST_EXPIRY_QUEUE, GUEST_EXPIRY_CRON);
    return this.#workEach<object>(GUEST_EXPIRY_QUEUE, 1, () => handle());
  }

  /** Runs `handle` once a day in whichever worker process takes the tick. */
  async workWebhookPrune(handle: () => Promise<void>) {
    await this.boss.schedule(WEBHOOK_PRUNE_QUEUE, WEBHOOK_PRUNE_CRON);
    return this.#workEach<object>(WEBHOOK_PRUNE_QUEUE, 1, () => handle());
  }

  /** Processes the jobs that ran out of attempts; `handle` gets the id each had in the extraction queue. */
  async workDeadLetters(handle: (data: ExtractionJobData, meta: { jobId: string }) => Promise<void>) {
    return this.#workEach<ExtractionJobData>(EXTRACTION_DEAD_LETTERS, 1, (job) =>
      handle(job.data, { jobId: job.sourceId ?? job.id }),
    );
  }

  /**
   * Works `queue` one job per fetch, `concurrency` at once (one pg-boss worker loop each). A worker that has just
   * finished a job looks for the next at once, so a backlog drains without a poll's wait between jobs; a job this
   * process sends wakes an idle worker (#wakeAt). A failure goes back to pg-boss as queueSafeError: its job rows keep
   * whatever a thrown error carries, and they outlive a purge.
   */
  async #workEach<T extends object>(
    queue: string,
    concurrency: number,
    handle: (job: JobWithMetadata<T>) => Promise<void>,
    grouped: Pick<WorkOptions, "localGroupConcurrency"> = {},
  ): Promise<void> {
    await this.boss.work<T, void, WorkOptions>(
      queue,
      {
        batchSize: 1,
        includeMetadata: true,
        pollingIntervalSeconds: this.options.pollingIntervalSeconds,
        localConcurrency: concurrency,
        ...grouped,
      },
      async ([job]) => {
        if (!job) return;
        await runJob(queue, job, handle);
        // pg-boss does not say which of the queue's workers holds this job. Told now, a worker with a job in hand
        // fetches again when it is done instead of waiting out its interval, which is this one's draining. A failed
        // attempt does not drain: a queue without a retry delay would spend its attempts back to back.
        for (const worker of this.#workers(queue)) if (worker.count > 0) this.boss.notifyWorker(worker.id);
      },
    );
  }

  /** This process's pg-boss workers of `queue`, each with the jobs it holds (`count`). */
  #workers(queue: string) {
    return this.boss.getWipData().filter((worker) => worker.name === queue);
  }

  /** Per queue and job key, the timer that wakes a worker when this process's job of that key comes due. */
  readonly #wakeTimers = new Map<string, NodeJS.Timeout>();
  #unkeyedWakes = 0;
  #stopped = false;

  /**
   * Wakes up to `count` idle workers of this process for `queue` when a job it sent comes due (now when `startAfter`
   * is absent), rather than at their next poll. A debounced job sent again under its `key` moves its timer with it;
   * jobs sent without a key each keep their own. A worker counted idle may be in the middle of a fetch that finds it
   * another job; this one then waits for the next worker to finish a job or poll.
   */
  #wakeAt(queue: string, key: string | undefined, startAfter: Date | undefined, count = 1): void {
    if (this.#stopped) return;
    const timerKey = `${queue}/${key ?? `#${++this.#unkeyedWakes}`}`;
    clearTimeout(this.#wakeTimers.get(timerKey));
    this.#wakeTimers.delete(timerKey);
    const wake = () => {
      const idle = this.#workers(queue).filter((worker) => worker.count === 0);
      for (const worker of idle.slice(0, count)) this.boss.notifyWorker(worker.id);
    };
    const delay = startAfter ? startAfter.getTime() - Date.now() : 0;
    if (delay <= 0) {
      wake();
      return;
    }
    // Node may fire a timer a millisecond early; a worker that looked too soon would wait for its next poll.
    const timer = setTimeout(() => {
      this.#wakeTimers.delete(timerKey);
      wake();
    }, delay + WAKE_SLACK_MS);
    timer.unref();
    this.#wakeTimers.set(timerKey, timer);
  }

  /** Jobs waiting (created, retry) or running (active) per queue and state, read from pg-boss's job table. */
  async depths(): Promise<Array<{ queue: string; state: string; jobs: number }>> {
    const { rows } = await this.boss.getDb().executeSql(
      `select name as queue, state::text as state, count(*)::int as jobs from ${QUEUE_SCHEMA}.job
       where state in ('created', 'retry', 'active') group by name, state`,
    );
    return rows as Array<{ queue: string; state: string; jobs: number }>;
  }

  /** Stops taking jobs and waits for the running one; an unfinished job returns to the queue for another worker. */
  async stop(timeoutMs = 30_000): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#wakeTimers.values()) clearTimeout(timer);
    this.#wakeTimers.clear();
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}

type AttemptMeta = { jobId: string; finalAttempt: boolean };

/** Which job an attempt belongs to, and whether it is the last before dead-lettering. */
const attemptMeta = (job: JobWithMetadata<object>): AttemptMeta => ({
  jobId: job.id,
  finalAttempt: job.retryCount >= job.retryLimit,
});

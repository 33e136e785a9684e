import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { embed, embedMany } from "ai";
import bm25 from "wink-bm25-text-search";
import nlp from "wink-nlp-utils";
import { asQuery, type EmbeddingMeter } from "../embedding";
import type { BenchStore } from "./store";

/** Okapi BM25's usual constants (wink's defaults too): term-frequency saturation and length normalisation. */
export const BM25_PARAMS = { k1: 1.2, b: 0.75, k: 1 } as const;
/** Vector weight of the fused peer's plain `search` (its weight curve covers the rest). */
const DEFAULT_VECTOR_WEIGHT = 0.5;

/**
 * wink-bm25-text-search's documented English pipeline: lower-case, tokenize, drop wink's English stop words, Porter2
 * stems (negation propagation left out: a stock BM25, not a tuned one). Documents and queries go through the same.
 */
const PIPELINE = [nlp.string.lowerCase, nlp.string.tokenize0, nlp.tokens.removeWords, nlp.tokens.stem];

/** The words a text is indexed by in the BM25 peer: its tokens less stop words, stemmed. */
export function indexedWords(text: string): string[] {
  return PIPELINE.reduce<unknown>((value, task) => (task as (input: unknown) => unknown)(value), text) as string[];
}

interface UserIndex {
  texts: Map<string, string>;
  vectors: Map<string, number[]>;
  engine?: ReturnType<typeof bm25>;
}

function buildEngine(texts: ReadonlyMap<string, string>): ReturnType<typeof bm25> | undefined {
  // wink refuses to consolidate fewer than three documents (its IDF would be meaningless).
  if (texts.size < 3) return undefined;
  const engine = bm25();
  engine.defineConfig({ fldWeights: { text: 1 }, bm25Params: { ...BM25_PARAMS } });
  engine.definePrepTasks(PIPELINE as never);
  for (const [key, text] of texts) engine.addDoc({ text }, key);
  engine.consolidate();
  return engine;
}

/**
 * A stock BM25 library in-process, one index per user over the same memory texts: the ranking a search that counts
 * matched terms has to beat (IDF over the user's own memories, k1/b saturation and length normalisation). Writes
 * go to the user's text map and the index is rebuilt by the next search (wink indexes are immutable once
 * consolidated), so it sits out the ingest suite. Given an embedding model it becomes a fused peer: BM25 scores
 * (divided by the best) and cosine similarities (min-max over the user's memories) combined as
 * (1 - weight) * lexical + weight * vector, with `searchWithWeight` for the report's weight curve.
 */
export function bm25Store(
  options: { embedding?: { model: EmbeddingModelV4; meter: EmbeddingMeter } } = {},
): BenchStore {
  const users = new Map<string, UserIndex>();
  const indexOf = (user: string) => {
    let index = users.get(user);
    if (!index) {
      index = { texts: new Map(), vectors: new Map() };
      users.set(user, index);
    }
    return index;
  };
  const add = async (user: string, memories: ReadonlyArray<{ key: string; text: string }>) => {
    const index = indexOf(user);
    for (const memory of memories) index.texts.set(memory.key, memory.text);
    index.engine = undefined;
    if (options.embedding && memories.length > 0) {
      const { embeddings } = await embedMany({
        model: options.embedding.model,
        values: memories.map((memory) => memory.text),
      });
      for (const [i, memory] of memories.entries()) index.vectors.set(memory.key, embeddings[i] as number[]);
    }
  };
  const lexical = (index: UserIndex, query: string, limit: number): Array<[string, number]> => {
    index.engine ??= buildEngine(index.texts);
    return index.engine?.search(query, limit) ?? [];
  };
  const fused = async (user: string, query: string, limit: number, weight: number): Promise<string[]> => {
    const index = indexOf(user);
    const embedding = options.embedding;
    if (!embedding) return lexical(index, query, limit).map(([key]) => key);
    const scores = new Map<string, { lexical: number; vector: number }>();
    const hits = lexical(index, query, index.texts.size);
    const best = hits[0]?.[1] ?? 0;
    for (const key of index.texts.keys()) scores.set(key, { lexical: 0, vector: 0 });
    for (const [key, score] of hits) (scores.get(key) as { lexical: number }).lexical = best > 0 ? score / best : 0;
    const queryVector = (await embed({ model: embedding.model, value: query })).embedding;
    const cosines = [...index.vectors].map(([key, vector]) => [key, cosine(queryVector, vector)] as const);
    const low = Math.min(...cosines.map(([, value]) => value));
    const high = Math.max(...cosines.map(([, value]) => value));
    for (const [key, value] of cosines) {
      const entry = scores.get(key);
      if (entry) entry.vector = high > low ? (value - low) / (high - low) : 0;
    }
    return [...scores]
      .map(([key, score]) => ({ key, ...score, total: (1 - weight) * score.lexical + weight * score.vector }))
      .sort((a, b) => b.total - a.total || b.lexical - a.lexical || b.vector - a.vector || (a.key < b.key ? -1 : 1))
      .slice(0, limit)
      .map((entry) => entry.key);
  };
  const store: BenchStore = {
    name: options.embedding ? "BM25 library + vectors" : "BM25 library",
    detail: options.embedding
      ? `wink-bm25-text-search fused with ${options.embedding.meter.model} cosine, vector weight ${DEFAULT_VECTOR_WEIGHT}`
      : `in-process wink-bm25-text-search (k1 ${BM25_PARAMS.k1}, b ${BM25_PARAMS.b}), Porter2 stems, stop words dropped`,
    ranking: options.embedding ? `BM25 ⊕ vector (w ${DEFAULT_VECTOR_WEIGHT})` : "BM25",
    ingest: false,
    ...(options.embedding ? { embedding: options.embedding.meter } : {}),
    async load(user) {
      await add(user.name, user.memories);
      // The index is built here, so its cost is load time; later writes rebuild it on the next search.
      const index = indexOf(user.name);
      index.engine = buildEngine(index.texts);
    },
    search: (user, query, limit) =>
      asQuery(options.embedding?.meter, () => fused(user, query, limit, options.embedding ? DEFAULT_VECTOR_WEIGHT : 0)),
    insertOne: (user, memory) => add(user, [memory]),
    insertBatch: (user, memories) => add(user, memories),
    close: async () => users.clear(),
  };
  if (options.embedding) {
    const meter = options.embedding.meter;
    store.searchWithWeight = (user, query, limit, weight) => asQuery(meter, () => fused(user, query, limit, weight));
  }
  return store;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA > 0 && normB > 0 ? dot / Math.sqrt(normA * normB) : 0;
}

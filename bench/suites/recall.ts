import type { ConversationUser } from "../data/conversations";
import type { BenchQuery } from "../data/generator";
import { type LatencySummary, mean, recallAtK, summarize, timed } from "../metrics";
import { indexedWords } from "../peers/bm25";
import type { BenchStore } from "../peers/store";

/** The cut-offs reported; one search of the deepest serves them all. */
export const RECALL_KS = [1, 5, 10, 20] as const;
const DEPTH = Math.max(...RECALL_KS);

export interface RecallQuery extends BenchQuery {
  /** Question type, where the dataset has them (the conversational one does). */
  category?: string;
}

export interface RecallFigure {
  dataset: string;
  store: string;
  /** How the store ranks (a search mode for Memory Ledger). */
  ranking: string;
  detail: string;
  questions: number;
  /**
   * Mean recall@k of the evidence, k = 1, 5, 10, 20 (min(k, |evidence|) hits count as complete); at1 is absent in runs
   * recorded before it was measured.
   */
  recall: Record<`at${Exclude<(typeof RECALL_KS)[number], 1>}`, number> & { at1?: number };
  /**
   * The dataset's questions that nothing answers, and how many of them got no result at all: what a store returns
   * is what it is confident of, so an empty answer is the right one.
   */
  noAnswer?: { questions: number; silent: number; belowFloor?: number };
  /**
   * For a store that scores its confidence (searchWithConfidence): the floor, and recall@10 counting only evidence
   * at or above it (what a caller that keeps only confident hits, such as the chat's recall, gets).
   */
  confident?: { floor: number; at10: number };
  /** recall@10 per question category. */
  byCategory?: Record<string, { questions: number; at10: number }>;
  /** Time of one search for the top 20. */
  latencyMs: LatencySummary;
  /** recall@10 for each vector weight, where the store can be asked with one (searchWithWeight). */
  weightCurve?: Array<{ weight: number; at10: number }>;
}

export interface EmbeddingCostFigure {
  store: string;
  model: string;
  memories: number;
  msPerMemory: number;
  queries: number;
  msPerQuery: number;
}

/**
 * Asks every question of a dataset once for the top 20 and scores recall@1/5/10/20 against the evidence keys, overall
 * and per question category; asks the `unanswerable` questions and counts those with no result (and, for a store that
 * scores its confidence, those with no hit at or above its floor, beside recall@10 of the evidence above it); then,
 * for a store with `searchWithWeight`, recall@10 at each of `weights`.
 */
export async function measureRecall(
  dataset: string,
  store: BenchStore,
  queries: readonly RecallQuery[],
  weights: readonly number[],
  unanswerable: readonly RecallQuery[] = [],
): Promise<RecallFigure> {
  const latencies: number[] = [];
  const perQuery: Array<{ query: RecallQuery; keys: string[] }> = [];
  const confidentAt10: number[] = [];
  let floor: number | undefined;
  for (const query of queries) {
    if (store.searchWithConfidence) {
      const { ms, value } = await timed(() => store.searchWithConfidence!(query.user, query.text, DEPTH));
      latencies.push(ms);
      floor = value.floor;
      perQuery.push({ query, keys: value.hits.map((hit) => hit.key) });
      const confident = value.hits.map((hit) => (hit.confidence >= value.floor ? hit.key : ""));
      confidentAt10.push(recallAtK(confident, query.relevant, 10));
      continue;
    }
    const { ms, value } = await timed(() => store.search(query.user, query.text, DEPTH));
    latencies.push(ms);
    perQuery.push({ query, keys: value });
  }
  const at = (k: number, rows = perQuery) => mean(rows.map(({ query, keys }) => recallAtK(keys, query.relevant, k)));
  const categories = [...new Set(queries.flatMap((query) => (query.category ? [query.category] : [])))];
  const figure: RecallFigure = {
    dataset,
    store: store.name,
    ranking: store.ranking ?? "",
    detail: store.detail,
    questions: queries.length,
    recall: { at1: at(1), at5: at(5), at10: at(10), at20: at(20) },
    latencyMs: summarize(latencies),
  };
  if (floor !== undefined) figure.confident = { floor, at10: mean(confidentAt10) };
  if (unanswerable.length > 0) {
    let silent = 0;
    let belowFloor = 0;
    for (const query of unanswerable) {
      if (store.searchWithConfidence) {
        const { hits, floor } = await store.searchWithConfidence(query.user, query.text, DEPTH);
        if (hits.length === 0) silent++;
        if (hits.every((hit) => hit.confidence < floor)) belowFloor++;
      } else if ((await store.search(query.user, query.text, DEPTH)).length === 0) silent++;
    }
    figure.noAnswer = {
      questions: unanswerable.length,
      silent,
      ...(store.searchWithConfidence ? { belowFloor } : {}),
    };
  }
  if (categories.length > 0) {
    figure.byCategory = Object.fromEntries(
      categories.map((category) => {
        const rows = perQuery.filter(({ query }) => query.category === category);
        return [category, { questions: rows.length, at10: at(10, rows) }];
      }),
    );
  }
  const searchWithWeight = store.searchWithWeight?.bind(store);
  if (searchWithWeight && weights.length > 0) {
    figure.weightCurve = [];
    for (const weight of weights) {
      const recalls: number[] = [];
      for (const query of queries) {
        const keys = await searchWithWeight(query.user, query.text, 10, weight);
        recalls.push(recallAtK(keys, query.relevant, 10));
      }
      figure.weightCurve.push({ weight, at10: mean(recalls) });
    }
  }
  return figure;
}

/** What each embedding store's model cost per memory embedded and per query embedded, over the whole run. */
export function embeddingCosts(stores: readonly BenchStore[]): EmbeddingCostFigure[] {
  return stores.flatMap((store) => {
    const meter = store.embedding;
    if (!meter) return [];
    const { load, query } = meter.totals;
    return [
      {
        store: store.name,
        model: meter.model,
        memories: load.values,
        msPerMemory: load.values > 0 ? load.ms / load.values : Number.NaN,
        queries: query.values,
        msPerQuery: query.values > 0 ? query.ms / query.values : Number.NaN,
      },
    ];
  });
}

/**
 * The share of evidence turns that have a word in common with their question besides the speakers' names (words as
 * the BM25 peer indexes them): the rest can only be found by meaning, so this bounds what any ranking by shared
 * words can find in a dataset whose questions paraphrase their evidence.
 */
export function evidenceSharingAWord(users: readonly ConversationUser[]): number {
  const shares: number[] = [];
  for (const user of users) {
    const names = new Set(user.speakers.flatMap((speaker) => indexedWords(speaker)));
    const words = (text: string) => new Set(indexedWords(text).filter((word) => !names.has(word)));
    const turns = new Map(user.memories.map((memory) => [memory.key, memory.text]));
    for (const query of user.queries) {
      const asked = words(query.text);
      for (const key of query.relevant) {
        shares.push([...words(turns.get(key) ?? "")].some((word) => asked.has(word)) ? 1 : 0);
      }
    }
  }
  return mean(shares);
}

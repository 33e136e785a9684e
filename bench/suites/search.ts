import { type BenchQuery, ownerOfKey } from "../data/generator";
import { type LatencySummary, mean, recallAtK, summarize, timed } from "../metrics";
import type { BenchStore } from "../peers/store";

export const SEARCH_LIMIT = 10;
/** Untimed searches first, at most: enough for every pooled connection to have planned each statement shape. */
const WARMUP_QUERIES = 40;

export interface SearchFigure {
  store: string;
  detail: string;
  memoriesPerUser: number;
  latencyMs: LatencySummary;
  recallAt10: number;
  /** Rows returned from namespaces other than the asking user's, over all queries. */
  foreignRows: number;
  /** Queries that returned at least one foreign row. */
  leakingQueries: number;
  /** Set when the time budget ran out before every query ran. */
  truncated?: boolean;
}

/**
 * Asks every query of a bucket and scores latency, recall@10 and cross-user rows: the steady state, after the
 * questions of the bucket's other (untimed) users have warmed every connection's plans and the store's caches, so
 * that neither the first uses of a statement nor the timed users' own rows being cached by a rehearsal are measured.
 * A store that exhausts `budgetMs` stops early and says so, so one slow peer cannot hold the whole run hostage.
 */
export async function measureSearch(
  store: BenchStore,
  bucket: { queries: readonly BenchQuery[]; warmups: readonly BenchQuery[]; memoriesPerUser: number },
  budgetMs: number,
): Promise<SearchFigure> {
  const { queries, memoriesPerUser } = bucket;
  const warmups = bucket.warmups.length > 0 ? bucket.warmups : queries;
  for (const query of warmups.slice(0, WARMUP_QUERIES)) await store.search(query.user, query.text, SEARCH_LIMIT);
  const latencies: number[] = [];
  const recalls: number[] = [];
  let foreignRows = 0;
  let leakingQueries = 0;
  const started = performance.now();
  for (const query of queries) {
    if (performance.now() - started > budgetMs) break;
    const { ms, value: keys } = await timed(() => store.search(query.user, query.text, SEARCH_LIMIT));
    latencies.push(ms);
    recalls.push(recallAtK(keys, query.relevant, SEARCH_LIMIT));
    const foreign = keys.filter((key) => ownerOfKey(key) !== query.user).length;
    foreignRows += foreign;
    if (foreign > 0) leakingQueries++;
  }
  return {
    store: store.name,
    detail: store.detail,
    memoriesPerUser,
    latencyMs: summarize(latencies),
    recallAt10: mean(recalls),
    foreignRows,
    leakingQueries,
    ...(latencies.length < queries.length ? { truncated: true } : {}),
  };
}

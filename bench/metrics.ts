export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

/** Nearest-rank percentiles over milliseconds. */
export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || Number.NaN);
  return { n: sorted.length, p50: rank(50), p95: rank(95), p99: rank(99), mean };
}

/**
 * Share of the relevant set found in the first k results, where a perfect answer needs only min(k, |relevant|) hits
 * (so a topic with 3 relevant memories is fully recalled by a top 10 that holds all 3).
 */
export function recallAtK(retrieved: readonly string[], relevant: readonly string[], k: number): number {
  if (relevant.length === 0) return Number.NaN;
  const wanted = new Set(relevant);
  const hits = [...new Set(retrieved.slice(0, k))].filter((key) => wanted.has(key)).length;
  return hits / Math.min(k, wanted.size);
}

export const mean = (values: readonly number[]) =>
  values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;

/** Milliseconds taken by `work`. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

import { generateUser } from "../data/generator";
import { type LatencySummary, summarize, timed } from "../metrics";
import { type BenchStore, chunks } from "../peers/store";

export const INGEST_BATCH_SIZE = 100;

export interface IngestFigure {
  store: string;
  singleRate: number;
  singleLatencyMs: LatencySummary;
  batchRate: number;
  batchSize: number;
  memories: { single: number; batch: number };
}

/**
 * Writes a fresh user's memories one at a time, then another fresh user's in batches of INGEST_BATCH_SIZE, into a
 * store that already holds the loaded data (so index maintenance costs what it would in production). Rates are
 * memories per second.
 */
export async function measureIngest(
  store: BenchStore,
  seed: number,
  counts: { single: number; batch: number },
): Promise<IngestFigure> {
  const single = generateUser(seed, { name: "ingest-one", memories: counts.single }, 0).memories;
  const latencies: number[] = [];
  const singleStart = performance.now();
  for (const memory of single) latencies.push((await timed(() => store.insertOne("ingest-one", memory))).ms);
  const singleSeconds = (performance.now() - singleStart) / 1_000;

  const batched = generateUser(seed, { name: "ingest-batch", memories: counts.batch }, 0).memories;
  const { ms: batchMs } = await timed(async () => {
    for (const part of chunks(batched, INGEST_BATCH_SIZE)) await store.insertBatch("ingest-batch", part);
  });
  return {
    store: store.name,
    singleRate: single.length / singleSeconds,
    singleLatencyMs: summarize(latencies),
    batchRate: batched.length / (batchMs / 1_000),
    batchSize: INGEST_BATCH_SIZE,
    memories: counts,
  };
}

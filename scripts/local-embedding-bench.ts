// Times the local embedding model on this machine: `npx tsx scripts/local-embedding-bench.ts [batchSize...]`.
// Prints init time (the memories' thread's, while the query thread loads its own), ms per query, ms per memory for
// embedMany calls of 32/64/128 ~15-word memories, the longest event-loop stall, and peak RSS. Timings only: nothing
// here is asserted.
import { embed, embedMany } from "ai";
import { closeLocalEncoderPool, LocalEmbeddingModel } from "../lib/ai/local-embedding";

const subjects = ["The user", "Their sister", "Their manager", "The user's partner", "Their oldest friend", "The team"];
const verbs = ["prefers", "is planning", "keeps forgetting", "has been asking about", "wants help with", "dislikes"];
const objects = [
  "a quiet table by the window in the old town",
  "the budget review that moved to the second Thursday",
  "hiking near Banff during the first week of September",
  "short answers without bullet points, conclusion first",
  "the Spanish lessons that start again in late August",
  "oat milk in their coffee since dairy upsets them",
];

function memories(count: number, seed: number): string[] {
  const pick = <T>(list: T[], n: number) => list[n % list.length] as T;
  return Array.from({ length: count }, (_, i) => {
    const n = seed * 7919 + i * 104729;
    return `${pick(subjects, n)} ${pick(verbs, n >> 3)} ${pick(objects, n >> 6)} (note ${i}).`;
  });
}

/** Runs `task` while a 1 ms timer watches the event loop; returns elapsed ms and the longest gap between ticks. */
async function watched(task: () => Promise<unknown>): Promise<{ ms: number; stall: number }> {
  let stall = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  const start = performance.now();
  await task();
  const ms = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(timer);
  return { ms, stall };
}

const peakRss = () => Math.round(process.resourceUsage().maxRSS / 1024);
const batchSizes = process.argv.slice(2).map(Number).filter(Boolean);

const rssBefore = peakRss();
const model = new LocalEmbeddingModel();
const init = await watched(() => embed({ model, value: "warm up" }));
console.log(`init: ${init.ms.toFixed(0)} ms; peak RSS ${rssBefore} MB before, ${peakRss()} MB after`);
const queries = [
  "what's my job?",
  "Where does my sister live?",
  "How do I take my coffee?",
  "When is the budget review?",
];
const rounds = 50;
const query = await watched(async () => {
  for (let i = 0; i < rounds; i++) {
    await embed({
      model,
      value: queries[i % queries.length] as string,
      providerOptions: { local: { purpose: "query" } },
    });
  }
});
console.log(`query: ${(query.ms / rounds).toFixed(1)} ms each (${rounds} short questions)`);

for (const batchSize of batchSizes.length > 0 ? batchSizes : [16]) {
  const sized = new LocalEmbeddingModel({ batchSize });
  for (const count of [32, 64, 128]) {
    const values = memories(count, count + batchSize);
    const words = values.reduce((sum, value) => sum + value.split(" ").length, 0) / count;
    const run = await watched(() => embedMany({ model: sized, values }));
    console.log(
      `batchSize ${batchSize}, embedMany of ${count} (~${words.toFixed(0)} words): ${(run.ms / count).toFixed(1)} ms/memory, ` +
        `${run.ms.toFixed(0)} ms total, longest event-loop stall ${run.stall.toFixed(0)} ms`,
    );
  }
}
console.log(`peak RSS: ${peakRss()} MB (the process, the encoder's threads for memories and for queries included)`);
await closeLocalEncoderPool();

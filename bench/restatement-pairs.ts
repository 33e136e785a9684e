// How far the offline consolidation's restatement rules reach past the wordings they were worked on
// (docs/performance.md, "Memory hygiene"): `npx tsx bench/restatement-pairs.ts` merges each pair of the two sets
// written blind to the rules and counts. The first set was then worked on; the second was not. Their near-misses are
// also a test.
import { opsForPair } from "../tests/support/offline-consolidation";
import first from "../tests/support/restatement-pairs.json";
import second from "../tests/support/restatement-pairs-2.json";

const merged = (list: string[][]) => list.filter(([a, b]) => opsForPair(a!, b!).includes("merge")).length;
for (const [name, pairs] of [
  ["first set (worked on)", first],
  ["second set (not worked on)", second],
] as const) {
  console.log(`${name}: restatements merged ${merged(pairs.same)} of ${pairs.same.length}`);
  console.log(`${name}: near-misses merged ${merged(pairs.different)} of ${pairs.different.length}`);
}

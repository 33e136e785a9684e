// How far the offline consolidation's restatement rules reach past the wordings they were worked on
// (docs/performance.md, "Memory hygiene"): `npx tsx bench/restatement-pairs.ts` merges each pair of the three sets
// written blind to the rules and counts. The first set was then worked on; the second and third were not (the third,
// whose pairs all share the words of what is liked, as the hygiene suite's do, is counted here only). The first two
// sets' near-misses are also a test.
import { opsForPair } from "../tests/support/offline-consolidation";
import first from "../tests/support/restatement-pairs.json";
import second from "../tests/support/restatement-pairs-2.json";
import third from "../tests/support/restatement-pairs-3.json";

const merged = (list: string[][]) => list.filter(([a, b]) => opsForPair(a!, b!).includes("merge")).length;
for (const [name, pairs] of [
  ["first set (worked on)", first],
  ["second set (not worked on)", second],
  ["third set (not worked on, not read)", third],
] as const) {
  console.log(`${name}: restatements merged ${merged(pairs.same)} of ${pairs.same.length}`);
  console.log(`${name}: near-misses merged ${merged(pairs.different)} of ${pairs.different.length}`);
}

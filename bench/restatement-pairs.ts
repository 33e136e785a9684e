// How far the offline consolidation's restatement rules reach past the wordings they were worked on
// (docs/performance.md, "Memory hygiene"): `npx tsx bench/restatement-pairs.ts` merges each pair of
// tests/support/restatement-pairs.json, written blind to the rules, and counts. The near-misses are also a test.
import { opsForPair } from "../tests/support/offline-consolidation";
import pairs from "../tests/support/restatement-pairs.json";

const merged = (list: string[][]) => list.filter(([a, b]) => opsForPair(a!, b!).includes("merge")).length;
console.log(`restatements merged: ${merged(pairs.same)} of ${pairs.same.length}`);
console.log(`near-misses merged: ${merged(pairs.different)} of ${pairs.different.length}`);

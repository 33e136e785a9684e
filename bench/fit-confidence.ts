import { readFileSync } from "node:fs";
import type { SearchMode } from "@/lib/memory/contract";
import { CONFIDENCE_FEATURES, logisticConfidence } from "@/lib/memory/search";
import type { ConfidenceSignals } from "@/lib/memory/store";

/*
 * Fits the confidence's logistic models (lib/memory/search/confidence.ts) to the tune half's lines of
 * bench/tune-confidence.ts, chooses the floor on the tune half, and prints both halves' figures with those weights:
 * `npx tsx bench/fit-confidence.ts [/tmp/confidence-signals.jsonl]`. The report half is only printed, never fitted on.
 */
interface Hit extends ConfidenceSignals {
  rank: number;
  evidence: boolean;
  confidence: number;
}
interface Line {
  style: string;
  half: "tune" | "report";
  mode: "lexical" | "hybrid" | "vector";
  answerable: boolean;
  relevant: number;
  hits: Hit[];
}

const featuresOf = (mode: SearchMode, hit: Hit) =>
  Object.values(CONFIDENCE_FEATURES[mode]).map((feature) => (feature as (signals: ConfidenceSignals) => number)(hit));
const namesOf = (mode: SearchMode) => Object.keys(CONFIDENCE_FEATURES[mode]);
/** The share of unanswerable questions that must get no confident hit on the report half, in each speaker style. */
const SILENT_TARGET = 0.9;
/**
 * The share aimed at on the tune half's `questions`: the target plus one standard error of a share measured on that
 * many questions. A floor that just meets the target on the tune half lands below it on the other half about as
 * often as above (docs/performance.md, "Confidence").
 */
const silentShareOf = (questions: number) =>
  SILENT_TARGET + Math.sqrt((SILENT_TARGET * (1 - SILENT_TARGET)) / questions);

const lines: Line[] = readFileSync(process.argv[2] ?? "/tmp/confidence-signals.jsonl", "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line));

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Logistic regression by full-batch gradient descent on standardised features; weights returned on the raw scale. */
function fitLogistic(rows: Array<{ x: number[]; y: number }>): { bias: number; weights: number[] } {
  const dims = rows[0]?.x.length ?? 0;
  const mean = Array.from({ length: dims }, (_, j) => rows.reduce((s, r) => s + (r.x[j] ?? 0), 0) / rows.length);
  const sd = Array.from(
    { length: dims },
    (_, j) => Math.sqrt(rows.reduce((s, r) => s + ((r.x[j] ?? 0) - (mean[j] ?? 0)) ** 2, 0) / rows.length) || 1,
  );
  const z = rows.map((r) => r.x.map((v, j) => (v - (mean[j] ?? 0)) / (sd[j] ?? 1)));
  let bias = 0;
  const w = new Array<number>(dims).fill(0);
  for (let step = 0; step < 3000; step++) {
    let gb = 0;
    const gw = new Array<number>(dims).fill(0);
    for (const [i, row] of rows.entries()) {
      const x = z[i] as number[];
      const p = sigmoid(bias + x.reduce((s, v, j) => s + v * (w[j] ?? 0), 0));
      const error = p - row.y;
      gb += error;
      for (let j = 0; j < dims; j++) gw[j] = (gw[j] ?? 0) + error * (x[j] ?? 0);
    }
    bias -= (0.5 * gb) / rows.length;
    for (let j = 0; j < dims; j++) w[j] = (w[j] ?? 0) - 0.5 * ((gw[j] ?? 0) / rows.length + 1e-4 * (w[j] ?? 0));
  }
  const weights = w.map((value, j) => value / (sd[j] ?? 1));
  return { bias: bias - weights.reduce((s, value, j) => s + value * (mean[j] ?? 0), 0), weights };
}

const models: Record<string, Record<string, number>> = {};
for (const mode of ["lexical", "hybrid", "vector"] as const) {
  const rows = lines
    .filter((line) => line.half === "tune" && line.mode === mode)
    .flatMap((line) => line.hits.map((hit) => ({ x: featuresOf(mode, hit), y: hit.evidence ? 1 : 0 })));
  const fitted = fitLogistic(rows);
  const model: Record<string, number> = { bias: Number(fitted.bias.toFixed(4)) };
  for (const [j, name] of namesOf(mode).entries()) model[name] = Number((fitted.weights[j] ?? 0).toFixed(4));
  models[mode] = model;
  console.log(`${mode}: ${JSON.stringify(model)}`);
}
const confidence = (line: Line, hit: Hit) =>
  logisticConfidence(line.mode, models[line.mode] as Record<string, number>, hit);
const best = (line: Line) => Math.max(0, ...line.hits.map((hit) => confidence(line, hit)));
const logit = (p: number) => Math.log(p / (1 - p));

/** The confidence below which silentShareOf(them) of the tune half's unanswerable questions fall, in each style. */
function floorOf(mode: SearchMode): number {
  let floor = 0;
  for (const style of ["named", "bare"]) {
    const maxima = lines
      .filter((l) => l.half === "tune" && l.mode === mode && l.style === style && !l.answerable)
      .map(best)
      .sort((a, b) => a - b);
    floor = Math.max(floor, maxima[Math.ceil(silentShareOf(maxima.length) * maxima.length) - 1] ?? 0);
  }
  return floor;
}
// The floor is hybrid's, the default mode's, rounded up; the other modes' biases move so that the same floor leaves
// the same share of their tune half's unanswerable questions without a confident hit.
const floor = Math.ceil((floorOf("hybrid") + 1e-4) * 1000) / 1000;
for (const mode of ["lexical", "vector"] as const) {
  const model = models[mode] as Record<string, number>;
  model.bias = Number(((model.bias ?? 0) + logit(floor - 1e-4) - logit(floorOf(mode))).toFixed(4));
  console.log(`${mode}, bias moved: ${JSON.stringify(model)}`);
}
console.log(`floor ${floor}`);

for (const half of ["tune", "report"])
  for (const style of ["named", "bare"])
    for (const mode of ["lexical", "hybrid", "vector"]) {
      const chosen = lines.filter((l) => l.half === half && l.style === style && l.mode === mode);
      const none = chosen.filter((l) => !l.answerable);
      const asked = chosen.filter((l) => l.answerable);
      const silent = none.filter((l) => l.hits.length === 0).length / none.length;
      const quiet = none.filter((l) => best(l) < floor).length / none.length;
      const recall = (k: number, confident: boolean) =>
        asked.reduce((s, l) => {
          const found = l.hits.filter((h) => h.rank < k && h.evidence && (!confident || confidence(l, h) >= floor));
          return s + found.length / Math.min(k, l.relevant);
        }, 0) / asked.length;
      console.log(
        `${half} ${style} ${mode}: no result ${(100 * silent).toFixed(1)}%, none above floor ${(100 * quiet).toFixed(1)}%,` +
          ` recall@1 ${(100 * recall(1, false)).toFixed(1)}% @10 ${(100 * recall(10, false)).toFixed(1)}%,` +
          ` evidence @10 above floor ${(100 * recall(10, true)).toFixed(1)}%`,
      );
    }

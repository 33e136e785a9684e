import type { SearchMode } from "@/lib/memory/contract";
import type { ConfidenceSignals } from "@/lib/memory/store";

export type { ConfidenceSignals };

/**
 * What each mode's confidence is read from. The lexical leg's coverage of the query, by rarity (a memory that holds
 * the question's rare words), and its exact share (held in the query's own words, not only through a related word or
 * a typo's correction); the vector leg's standing, how far a memory stands out of the user's memories for this query.
 * Tried on the tune half and left out: the lexical score itself, the raw cosine and the product of coverage and
 * standing (no gain beside these), and the share of the query's words no memory holds (it lowered the evidence kept
 * above the floor). docs/performance.md, "Search quality".
 */
export const CONFIDENCE_FEATURES = {
  lexical: {
    coverage: (signals: ConfidenceSignals) => signals.coverage,
    exact: (signals: ConfidenceSignals) => signals.exact,
  },
  hybrid: {
    coverage: (signals: ConfidenceSignals) => signals.coverage,
    exact: (signals: ConfidenceSignals) => signals.exact,
    standing: (signals: ConfidenceSignals) => signals.standing ?? 0,
  },
  vector: {
    cosine: (signals: ConfidenceSignals) => signals.cosine ?? 0,
    standing: (signals: ConfidenceSignals) => signals.standing ?? 0,
  },
} as const satisfies Record<SearchMode, Record<string, (signals: ConfidenceSignals) => number>>;

type Weights<M extends SearchMode> = { bias: number } & Record<keyof (typeof CONFIDENCE_FEATURES)[M], number>;

/**
 * Each mode's logistic model, confidence = 1 / (1 + e^-(bias + Σ weight × feature)): the chance that a hit is
 * evidence of its question. Fitted on the tune half of the bench's conversations, every hit in the top 20 of every
 * question labelled by whether it is evidence, unanswerable questions' hits never; then the lexical and vector modes'
 * biases are moved so that the same share of the tune half's unanswerable questions as hybrid's (nine in ten and one
 * standard error more) get nothing at or above LIMITS.confidenceFloor (`npx tsx bench/tune-confidence.ts` writes the
 * signals, `npx tsx bench/fit-confidence.ts` fits these and chooses the floor).
 */
export const CONFIDENCE_MODELS: { [M in SearchMode]: Weights<M> } = {
  lexical: { bias: -6.3602, coverage: 5.0453, exact: 4.1336 },
  hybrid: { bias: -8.449, coverage: 5.4635, exact: 2.3209, standing: 0.9993 },
  vector: { bias: -11.3457, cosine: 6.6784, standing: 1.2806 },
};

/** The chance that `weights` give for `signals` in `mode` (see CONFIDENCE_MODELS). */
export function logisticConfidence(
  mode: SearchMode,
  weights: Record<string, number>,
  signals: ConfidenceSignals,
): number {
  let logit = weights.bias ?? 0;
  for (const [name, feature] of Object.entries(CONFIDENCE_FEATURES[mode]) as Array<
    [string, (signals: ConfidenceSignals) => number]
  >) {
    logit += (weights[name] ?? 0) * feature(signals);
  }
  return 1 / (1 + Math.exp(-logit));
}

/** A hit's confidence in [0, 1] (CONFIDENCE_MODELS), rounded to 4 digits. */
export function confidenceOf(signals: ConfidenceSignals, mode: SearchMode): number {
  return Math.round(10_000 * logisticConfidence(mode, CONFIDENCE_MODELS[mode], signals)) / 10_000;
}

/**
 * A similarity's standing among the query's similarities to every memory the vector leg scanned: how many standard
 * deviations it lies above their mean. An encoder's absolute cosines differ from query to query (a long question is
 * nearer everything); a memory that answers stands out of the user's memories, whatever the query's level.
 */
export function vectorStanding(similarity: number, over: { mean: number; spread: number }): number {
  return over.spread > 0 ? (similarity - over.mean) / over.spread : 0;
}

import { describe, expect, it } from "vitest";
import { renderHygiene } from "@/bench/report";
import type { HygieneFigure, HygieneSide } from "@/bench/suites/hygiene";

const side = (recall: Partial<HygieneSide> = {}): HygieneSide => ({
  memories: 160,
  duplicatePairs: 0,
  duplicateRate: 0,
  plantedDuplicates: 0,
  unresolvedConflicts: 0,
  expiredInRecall: 0,
  recallAt10: 1,
  ...recall,
});

const figure = (before: HygieneSide, after: HygieneSide): HygieneFigure => ({
  half: "tune",
  manager: "scripted",
  people: 20,
  planted: { paraphrases: 20, changedValues: 40, pastPlans: 20 },
  before,
  after,
  run: {
    restatementsShown: 20,
    groups: 80,
    applied: 79,
    rejected: 0,
    modelCalls: 80,
    inputTokens: 5e4,
    outputTokens: 4e3,
  },
});

describe("the hygiene report", () => {
  it("gives recall@1 before and after a run, and after it ranked by support at each weight tried", () => {
    const bySupport = [
      { weight: 0.5, recallAt1: 0.925, firstChanged: 0 },
      { weight: 2, recallAt1: 0.9, firstChanged: 3 },
    ];
    const text = renderHygiene([figure(side({ recallAt1: 0.688 }), side({ recallAt1: 0.925, bySupport }))]);
    expect(text).toMatch(/\| recall@1 +\| 0\.688 +\| 0\.925 +\|/);
    expect(text).toContain(
      "w 0 (the search's order): recall@1 0.925, w 0.5: 0.925 (0 first hits changed), w 2: 0.900 (3 first hits changed).",
    );
  });

  it("renders results recorded before either was counted without them", () => {
    const text = renderHygiene([figure(side(), side())]);
    expect(text).toContain("| recall@10");
    expect(text).not.toMatch(/recall@1 |support|undefined/);
  });
});

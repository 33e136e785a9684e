import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fullRuns, PAGE, RESULTS_DIRECTORY, renderGenerated, renderPage } from "@/bench/performance-page";
import type { BenchResults } from "@/bench/report";

describe("docs/performance.md", () => {
  let scratch: string | undefined;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it("shows what bench/results hold (`npm run docs:performance` after a bench run that did not write it)", () => {
    const page = readFileSync(PAGE, "utf8");
    expect(page).toBe(renderPage(page, RESULTS_DIRECTORY));
  });

  it("names a figure of ours that got worse since the run before, and a run with --only is not a full run", () => {
    scratch = mkdtempSync(path.join(tmpdir(), "perf-page-"));
    const latest = fullRuns(RESULTS_DIRECTORY, "100k").at(-1)!;
    copyFileSync(path.join(RESULTS_DIRECTORY, latest.file), path.join(scratch, "2100-01-01.json"));
    const slower = structuredClone(latest.results) as BenchResults;
    slower.startedAt = "2100-01-02T00:00:00.000Z";
    const figure = slower.search.find((entry) => entry.store.startsWith("Memory Ledger"))!;
    figure.latencyMs.p50 *= 2;
    writeFileSync(path.join(scratch, "2100-01-02.json"), JSON.stringify(slower));
    const partial = {
      ...structuredClone(slower),
      startedAt: "2100-01-03T00:00:00.000Z",
      command: "npm run bench -- --only search",
    };
    writeFileSync(path.join(scratch, "2100-01-03.json"), JSON.stringify(partial));

    const generated = renderGenerated(scratch);
    expect(generated).toContain("`bench/results/2100-01-02.json`");
    const row = generated.split("\n").find((line) => line.startsWith(`| search p50, ${figure.store} @`));
    expect(row).toMatch(/\| worse +\|$/);
    expect(generated.split("\n").filter((line) => /\| worse +\|$/.test(line))).toHaveLength(1);
  });
});

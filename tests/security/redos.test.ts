import path from "node:path";
import { Worker } from "node:worker_threads";
import { check, type Diagnostics, type Parameters } from "recheck";
import { describe, expect, it } from "vitest";
import { type FoundPattern, patternsIn, patternsInSource, typeScriptFiles } from "./regex-sources";

/**
 * No regular expression in the code that reads user or model text can backtrack super-linearly (ReDoS): every
 * pattern written in lib/, app/, components/ and proxy.ts is checked by recheck, which finds polynomial as well as
 * exponential backtracking. A pattern it calls vulnerable, or cannot decide, fails the suite with its file:line and
 * an attack string; a RegExp built at run time fails it too, since no checker can see it.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCES = [...["lib", "app", "components"].flatMap((dir) => typeScriptFiles(ROOT, dir)), "proxy.ts"];
const PARSED = SOURCES.map((file) => patternsIn(ROOT, file));

const CHECK: Parameters = {
  // recheck proves a small pattern safe or not on its automaton, exactly; patterns whose automaton is larger than
  // this (long case-insensitive word lists) take seconds that way and are fuzzed instead, in a fraction of the time.
  maxNFASize: 3_000,
  // Generous: a loaded CI machine must not turn a slow proof into an "unknown".
  timeout: 60_000,
  // The fuzzer's seed is fixed so that a run's verdict is the code's, not the draw's.
  randomSeed: 1,
};

/** How long V8 may take over a fuzzer's attack string (tens of thousands of characters) before it counts. */
const V8_ATTACK_BUDGET_MS = 2_000;

/**
 * Whether V8 itself backtracks on a fuzzer's attack: recheck's fuzzer measures steps of its own backtracking model,
 * and flags patterns such as /^user prefers (.+?) (?:over|to) ([\s\S]+)$/ that V8 matches in well under a
 * millisecond at 30,000 characters. The match runs in a worker thread that is stopped at the budget, so a pattern
 * that really is catastrophic cannot hold the suite.
 */
async function v8Backtracks(source: string, flags: string, attack: string): Promise<boolean> {
  const worker = new Worker(
    "const { workerData, parentPort } = require('node:worker_threads');" +
      "new RegExp(workerData.source, workerData.flags).test(workerData.attack); parentPort.postMessage('done');",
    { eval: true, workerData: { source, flags, attack } },
  );
  const finished = await Promise.race([
    new Promise<boolean>((resolve) => worker.once("message", () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), V8_ATTACK_BUDGET_MS)),
  ]);
  await worker.terminate();
  return !finished;
}

/** Checks run two at a time: recheck's native checker runs in its own process, one check per core. */
async function checkAll(patterns: FoundPattern[]): Promise<Array<{ pattern: FoundPattern; result: Diagnostics }>> {
  const results: Array<{ pattern: FoundPattern; result: Diagnostics }> = [];
  const queue = [...patterns];
  const worker = async () => {
    for (let pattern = queue.shift(); pattern; pattern = queue.shift()) {
      const result = await check(pattern.source, pattern.flags, CHECK);
      // An automaton proof is exact; a fuzzer's attack counts when the engine that runs the code backtracks on it.
      const confirmed =
        result.status !== "vulnerable" ||
        result.checker === "automaton" ||
        (await v8Backtracks(pattern.source, pattern.flags, result.attack.string));
      const unconfirmed: Diagnostics = {
        source: result.source,
        flags: result.flags,
        status: "safe",
        checker: "fuzz",
        complexity: { type: "safe", summary: "no backtracking in V8 on the fuzzer's attack", isFuzz: true },
      };
      results.push({ pattern, result: confirmed ? result : unconfirmed });
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

function finding({ pattern, result }: { pattern: FoundPattern; result: Diagnostics }): string | null {
  const shown = `${pattern.at} /${pattern.source}/${pattern.flags}`;
  if (result.status === "vulnerable") {
    return `${shown} is ${result.complexity.summary}; attack: ${result.attack.pattern}`;
  }
  if (result.status === "unknown") {
    const reason = "message" in result.error ? `${result.error.kind}: ${result.error.message}` : result.error.kind;
    return `${shown} could not be checked (${reason}); write it so recheck can decide, or read the text by hand`;
  }
  return null;
}

describe("regular expressions (ReDoS)", () => {
  it("finds every kind of pattern the sources write, and nothing that only looks like one", () => {
    const source = [
      "const a = /x+y/gi;",
      'const b = new RegExp("^z*$", "u");',
      "const c = RegExp(`w\\\\d`);",
      'const d = text.match("q+");',
      'const e = new RegExp(word, "i");',
      'const f = total / count / 2; const g = "/not a pattern/"; // /nor this/',
    ].join("\n");
    const { patterns, built } = patternsInSource("sample.ts", source);
    expect(patterns).toEqual([
      { at: "sample.ts:1", source: "x+y", flags: "gi" },
      { at: "sample.ts:2", source: "^z*$", flags: "u" },
      { at: "sample.ts:3", source: "w\\d", flags: "" },
      { at: "sample.ts:4", source: "q+", flags: "" },
    ]);
    expect(built).toEqual([{ at: "sample.ts:5", owner: "e", code: 'new RegExp(word, "i")' }]);
  });

  it("reports the pattern that split the offline model's clauses before issue 29 as cubic, with an attack", async () => {
    const pattern = {
      at: "lib/ai/offline/statements.ts:110",
      source: "\\s*[,;]?\\s+(and|but|plus|so)\\s+|\\s*;\\s*",
      flags: "gi",
    };
    const result = await check(pattern.source, pattern.flags, CHECK);
    expect(result).toMatchObject({ status: "vulnerable", complexity: { type: "polynomial", degree: 3 } });
    // And V8 backtracks on the attack, so a fuzzer's finding on such a pattern stands.
    if (result.status === "vulnerable") {
      expect(await v8Backtracks(pattern.source, pattern.flags, result.attack.string)).toBe(true);
    }
    expect(finding({ pattern, result })).toMatch(/^lib\/ai\/offline\/statements\.ts:110 .* attack: .+/);
  });

  it("builds no RegExp at run time: each pattern is a literal recheck can read", () => {
    const built = PARSED.flatMap((file) => file.built);
    expect(built.map((entry) => `${entry.at} (in ${entry.owner}): ${entry.code}`)).toEqual([]);
  });

  it("has no pattern that backtracks super-linearly in lib/, app/, components/ or proxy.ts", {
    timeout: 300_000,
  }, async () => {
    const patterns = PARSED.flatMap((file) => file.patterns);
    // The offline model alone writes dozens: a parser that found none must not pass.
    expect(patterns.filter((pattern) => pattern.at.startsWith("lib/ai/offline/")).length).toBeGreaterThan(40);
    const findings = (await checkAll(patterns)).flatMap((checked) => finding(checked) ?? []);
    expect(findings.sort()).toEqual([]);
  });
});

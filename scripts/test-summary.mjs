// Adds up the vitest and Playwright JSON reports into the one line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from "node:fs";

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);
let passed = 0;
let failed = 0;
let skipped = 0;

const vitest = read(".test-results/vitest.json");
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
}
const playwright = read(".test-results/playwright.json");
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  skipped += playwright.stats.skipped;
}
// argv: number of failed checks outside the test runners (lint, typecheck), then the test command's exit status.
failed += Number(process.argv[2] ?? 0);
// A test command that failed without a failing test in any report (e.g. the build broke) still failed.
if (Number(process.argv[3] ?? 0) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);

// Adds up the vitest and Playwright JSON reports into the one line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

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
// What failed, next to the count: the end of CI's log is what gets read, and the runners print their failures long
// before it (a test file that failed as a whole, before any of its tests ran, leaves no failed test to count).
const failures = [];
for (const file of vitest?.testResults ?? []) {
  const name = path.relative(process.cwd(), file.name);
  if (file.status === "failed" && file.message) failures.push(`${name}: ${file.message}`);
  for (const test of file.assertionResults) {
    if (test.status === "failed") failures.push(`${name} › ${test.fullName}: ${test.failureMessages.join("\n")}`);
  }
}
// A file's suites hold its describe blocks, whose titles tell one server's run of a test from another's.
const specs = (suite, titles) => [
  ...(suite.specs ?? []).map((spec) => ({ spec, titles })),
  ...(suite.suites ?? []).flatMap((inner) => specs(inner, [...titles, inner.title])),
];
for (const { spec, titles } of (playwright?.suites ?? []).flatMap((file) => specs(file, []))) {
  for (const test of spec.tests) {
    if (test.status !== "unexpected") continue;
    const errors = test.results.flatMap((result) => result.errors.map((error) => error.message ?? ""));
    const project = test.projectName ? ` [${test.projectName}]` : "";
    failures.push(`${spec.file} › ${[...titles, spec.title].join(" › ")}${project}: ${errors.join("\n")}`);
  }
}
for (const error of playwright?.errors ?? []) failures.push(`playwright: ${error.message ?? ""}`);
for (const failure of failures.slice(0, 10)) {
  console.log(`FAILED ${failure.split("\n").slice(0, 12).join("\n  ")}`);
}
if (failures.length > 10) console.log(`... and ${failures.length - 10} more failures`);

// argv: number of failed checks outside the test runners (lint, typecheck), then the test command's exit status.
failed += Number(process.argv[2] ?? 0);
// A test command that failed without a failing test in any report (e.g. the build broke) still failed.
if (Number(process.argv[3] ?? 0) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);

// `npm test`: `test:unit` and `build` at once, then Playwright on that build (what `test:e2e` runs one after the
// other). The build runs at the lowest CPU priority, so it takes mostly what vitest leaves idle (docs/testing.md,
// "Time"). Its output goes to .test-results/build.log, printed once vitest and the build have both ended, so that it
// does not interleave with vitest's. Arguments after `npm test --` go to Playwright, as they did to `test:e2e`.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";

const RESULTS = ".test-results";
const BUILD_LOG = `${RESULTS}/build.log`;
/** Written when the build has succeeded: .ci/run starts the bench's smoke run on the build from then on. */
const BUILT = `${RESULTS}/build-finished`;
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** Runs `command`; resolves to its exit code. */
function run(command, args, output = "inherit") {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", output, output], shell: process.platform === "win32" });
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

mkdirSync(RESULTS, { recursive: true });
rmSync(BUILT, { force: true });
const log = openSync(BUILD_LOG, "w");
// Through `nice` every process and thread of the build has the priority from its start; Windows has no `nice`.
const build = process.platform === "win32" ? [npm, ["run", "build"]] : ["nice", ["-n", "19", npm, "run", "build"]];
const building = run(build[0], build[1], log).then((code) => {
  if (code === 0) writeFileSync(BUILT, "");
  return code;
});
const unit = await run(npm, ["run", "test:unit"]);
const built = await building;
closeSync(log);
// Written synchronously: a pipe's asynchronous write could be cut short by the exit that follows a failure.
writeSync(1, readFileSync(BUILD_LOG, "utf8"));
if (built !== 0) writeSync(2, `next build failed (exit ${built})\n`);
process.exitCode =
  unit !== 0 || built !== 0
    ? unit || built
    : await run(npm, ["exec", "--", "playwright", "test", ...process.argv.slice(2)]);

// `npm test`: what `test:unit` and `test:e2e` run, with the production build beside vitest instead of after it. The
// build runs at the lowest CPU priority, so it takes mostly what vitest leaves idle, and Playwright then runs on it
// (docs/testing.md, "Time"). The build's output goes to .test-results/build.log, printed once vitest and the build
// have both ended, so that it does not interleave with vitest's.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { constants, setPriority } from "node:os";
import path from "node:path";

const RESULTS = ".test-results";
const BUILD_LOG = `${RESULTS}/build.log`;
/** Written when the build has succeeded: .ci/run starts the bench's smoke run on the build from then on. */
const BUILT = `${RESULTS}/build-finished`;

const require = createRequire(import.meta.url);
/** The file of a package's command, as npm links it into node_modules/.bin. */
function bin(name, command) {
  const manifest = require.resolve(`${name}/package.json`);
  return path.join(path.dirname(manifest), require(manifest).bin[command]);
}

/** Runs node with `args`; resolves to its exit code. */
function run(args, { output = "inherit", lowPriority = false } = {}) {
  // Through `nice` the priority is set before node starts, so every thread and process of the build has it; Windows
  // has no `nice`, and its priority class, set on the process once started, covers the process's threads.
  const viaNice = lowPriority && process.platform !== "win32";
  const [command, commandArgs] = viaNice ? ["nice", ["-n", "19", process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: ["ignore", output, output] });
    if (lowPriority && !viaNice && child.pid !== undefined) {
      try {
        setPriority(child.pid, constants.priority.PRIORITY_LOW);
      } catch {
        // Refused: the same build at normal priority, which vitest then shares the cores with.
      }
    }
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

mkdirSync(RESULTS, { recursive: true });
rmSync(BUILT, { force: true });
const log = openSync(BUILD_LOG, "w");
const building = run([bin("next", "next"), "build"], { output: log, lowPriority: true }).then((code) => {
  if (code === 0) writeFileSync(BUILT, "");
  return code;
});
const unit = await run([bin("vitest", "vitest"), "run"]);
const built = await building;
closeSync(log);
// Written synchronously: a pipe's asynchronous write could be cut short by the exit that follows a failure.
writeSync(1, readFileSync(BUILD_LOG, "utf8"));
if (built !== 0) writeSync(2, `next build failed (exit ${built})\n`);
process.exitCode =
  unit !== 0 || built !== 0 ? unit || built : await run([bin("@playwright/test", "playwright"), "test"]);

// `npm test`: the unit and integration suites (vitest) and the production build at once, then the browser suite
// (Playwright) on that build. The build runs at the lowest CPU priority, so it takes only what vitest leaves idle: on
// two cores vitest kept its time (280 s beside it, 279 alone) and the build, 75 s after vitest on its own, was done
// before vitest ended (docs/testing.md, "Time"). Its output goes to .test-results/build.log, printed when it ends, so
// it does not interleave with vitest's.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { setPriority } from "node:os";
import path from "node:path";

const RESULTS = ".test-results";
/** Written when the build has succeeded: .ci/run starts the bench's smoke run on the build from then on. */
const BUILT = `${RESULTS}/build-finished`;
const LOWEST_PRIORITY = 19;

const require = createRequire(import.meta.url);
/** The file of a package's command, as npm links it into node_modules/.bin. */
function bin(name, command) {
  const manifest = require.resolve(`${name}/package.json`);
  return path.join(path.dirname(manifest), require(manifest).bin[command]);
}

/** Runs `args` with node; resolves to its exit code. */
function run(args, { output, lowPriority = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", output ?? "inherit", output ?? "inherit"] });
    if (lowPriority && child.pid !== undefined) {
      try {
        // Before node has started in the child: the threads and processes the build starts inherit it.
        setPriority(child.pid, LOWEST_PRIORITY);
      } catch {
        // A system that refuses it builds at normal priority, slower beside vitest but the same build.
      }
    }
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

mkdirSync(RESULTS, { recursive: true });
const log = createWriteStream(`${RESULTS}/build.log`);
await new Promise((resolve) => log.once("open", resolve));
const building = run([bin("next", "next"), "build"], { output: log, lowPriority: true }).then((code) => {
  if (code === 0) writeFileSync(BUILT, "");
  return code;
});
const unit = await run([bin("vitest", "vitest"), "run"]);
const built = await building;
log.end();
process.stdout.write(readFileSync(`${RESULTS}/build.log`, "utf8"));
if (built !== 0) console.error(`next build failed (exit ${built})`);
if (unit !== 0 || built !== 0) process.exit(unit || built);
process.exit(await run([bin("@playwright/test", "playwright"), "test"]));

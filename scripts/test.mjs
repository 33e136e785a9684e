// `npm test`: vitest, and while it runs (its tests wait on timers, servers and child processes, leaving part of the
// machine idle) the production build and then the bench's smoke run on that build, which proves the harness works
// and asserts no timing; then Playwright against the build. What ran beside vitest is shown once it is done, so it
// does not break into vitest's output (docs/testing.md, "Time").
import { spawn } from "node:child_process";

function run(command, args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("exit", (code, signal) => resolve({ ok: code === 0, code: code ?? signal, output }));
    child.on("error", (error) => resolve({ ok: false, code: error.message, output }));
  });
}

async function buildThenSmoke() {
  const build = await run("npx", ["next", "build"], { quiet: true });
  const smoke = build.ok
    ? await run("npx", ["tsx", "bench/run.ts", "--smoke"], { quiet: true })
    : { ok: false, code: "not run: the build failed", output: "" };
  return { build, smoke };
}

const [unit, { build, smoke }] = await Promise.all([run("npx", ["vitest", "run"]), buildThenSmoke()]);
process.stdout.write(`\n> next build\n${build.output}\n> npm run bench -- --smoke\n${smoke.output}\n`);
const e2e = build.ok ? await run("npx", ["playwright", "test"]) : { ok: false, code: "not run: the build failed" };
const failed = Object.entries({ vitest: unit, "next build": build, "bench smoke": smoke, playwright: e2e })
  .filter(([, result]) => !result.ok)
  .map(([name, result]) => `${name} failed (${result.code})`);
for (const line of failed) console.error(line);
process.exit(failed.length === 0 ? 0 : 1);

// `npm test`: vitest, with the production build the browser tests run against made at the same time (vitest leaves
// part of the machine idle while its tests wait on timers, servers and child processes), then Playwright against that
// build. The build's output is shown once it is done, so it does not break into vitest's (docs/testing.md, "Time").
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

const [unit, build] = await Promise.all([
  run("npx", ["vitest", "run"]),
  run("npx", ["next", "build"], { quiet: true }),
]);
process.stdout.write(`\n> next build\n${build.output}`);
const e2e = build.ok ? await run("npx", ["playwright", "test"]) : { ok: false, code: "not run: the build failed" };
if (!unit.ok) console.error(`vitest failed (${unit.code})`);
if (!build.ok) console.error(`next build failed (${build.code})`);
if (!e2e.ok) console.error(`playwright failed (${e2e.code})`);
process.exit(unit.ok && build.ok && e2e.ok ? 0 : 1);

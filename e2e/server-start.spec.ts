import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";

test("the production server refuses to start without AUTH_SECRET and says why", async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DIR: ".data/e2e-no-secret/pglite" };
  delete env.AUTH_SECRET;
  const child = spawn("npx", ["next", "start", "-p", "3199", "-H", "127.0.0.1"], { env });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearTimeout(timer);
  expect(code).toBe(1);
  expect(output).toContain("AUTH_SECRET is not set");
});

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { say } from "./chat-support";

const PORT = 3190;
const ORIGIN = `http://127.0.0.1:${PORT}`;

/**
 * `npm run dev` opened at 127.0.0.1 rather than localhost: Next.js refuses its dev resources (and with them the
 * page's scripts) to hosts outside `allowedDevOrigins`, which left the chat dead (next.config.ts).
 */
test.describe("the development server", () => {
  test.describe.configure({ timeout: 300_000 });
  let server: ChildProcess | undefined;
  let output = "";
  const dataDir = mkdtempSync(path.join(tmpdir(), "memory-ledger-dev-"));

  test.beforeAll(async () => {
    // As `npm run dev` starts it: no --hostname, which Next.js would add to the allowed hosts by itself.
    server = spawn("npx", ["next", "dev", "--port", String(PORT)], {
      env: {
        ...process.env,
        NODE_ENV: "development",
        PGLITE_DIR: path.join(dataDir, "pglite"),
        AUTH_SECRET: randomBytes(32).toString("base64"),
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    server.stdout?.on("data", (chunk) => {
      output += chunk;
    });
    server.stderr?.on("data", (chunk) => {
      output += chunk;
    });
    await expect
      .poll(async () => (await fetch(`${ORIGIN}/api/health`).catch(() => null))?.status, { timeout: 240_000 })
      .toBe(200);
  });

  test.afterAll(async () => {
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("answers a chat message sent from http://127.0.0.1", async ({ page }) => {
    await page.goto(ORIGIN);
    // The chat route and /chat/[id] (the refresh after the first answer) are compiled on their first request, which
    // took over 15 s on CI's two cores.
    const answer = await say(page, "Remember that I keep bees on the roof.", { timeout: 120_000 });
    await expect(answer).toContainText(/bees/i);
    expect(output).not.toContain("Blocked cross-origin request");
  });
});

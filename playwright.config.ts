import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: ".test-results/playwright.json" }]],
  outputDir: "test-results",
  use: {
    baseURL,
    // Recording a trace for every test cost CI a seventh of the browser suite (204 s against 178 s on two cores,
    // docs/testing.md, "Time"): CI records one when it retries a failed test, a local run (no retries) on failure.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    // A production server on its own fresh embedded database, so runs never see each other's data.
    // A keep-alive connection outlives the tests' idle gaps (Node's 5 s default races a request sent as it closes).
    // e2e/seed-admin.ts registers the admin account (admin@example.com) and grants it the admin flag first.
    command: `rm -rf .data/e2e && node --import tsx e2e/seed-admin.ts && npx next start -p ${PORT} -H 127.0.0.1 --keepAliveTimeout 65000`,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PGLITE_DIR: ".data/e2e/pglite",
      AUTH_SECRET: "e2e-only-secret-not-for-production-0123456789",
      AUTH_GUESTS: "true",
      EXTRACTION_DEBOUNCE_MS: "500",
      // Every browser context is a new guest and all of them come from one client key (no TRUST_PROXY): about 25
      // guests, 6 registrations and 3 sign-ins per run fit the default of 30 a minute, but with no room for growth.
      AUTH_RATE_LIMIT_PER_MINUTE: "300",
      // e2e/webhooks.spec.ts delivers to a receiver on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE: "true",
    },
  },
});

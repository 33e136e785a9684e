import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Test files that replace modules (vi.mock, directly or through the route harness) need a module graph of their own;
 * every other file shares its worker's modules with the files before it, which saves evaluating the app's imports
 * again per file (docs/testing.md).
 */
const REPLACES_MODULES = /\bvi\.(mock|doMock|stubGlobal|stubEnv|resetModules)\b|support\/route-(mocks|server|harness)/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.join(dir, file));
}
const isolated = testFiles("tests").filter((file) => REPLACES_MODULES.test(readFileSync(file, "utf8")));

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    pool: "forks",
    // A worker per core: vitest's default leaves one core free, one worker on CI's two (two took the suite from about
    // 17 to 11 minutes there). The suite keeps both cores busy, so a third worker measured no faster (docs/testing.md).
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    // Tests that want vectors give their contexts an embedding model; nothing else loads the local encoder.
    env: { EMBEDDING_MODEL: "none" },
    hookTimeout: 120_000,
    setupFiles: ["tests/support/file-setup.ts"],
    reporters: ["default", "json"],
    outputFile: { json: ".test-results/vitest.json" },
    server: { deps: { inline: ["next-auth"] } },
    projects: [
      { extends: true, test: { name: "isolated", include: isolated } },
      { extends: true, test: { name: "shared", include: ["tests/**/*.test.ts"], exclude: isolated, isolate: false } },
    ],
  },
});

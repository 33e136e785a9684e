import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts"],
    pool: "forks",
    // A worker per core: vitest's default leaves one core free, one worker on CI's two, where most suites wait on a
    // database server or a timer rather than the CPU (two workers took the suite from about 17 to 11 minutes there).
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    // Tests that want vectors give their contexts an embedding model; nothing else loads the local encoder.
    env: { EMBEDDING_MODEL: "none" },
    hookTimeout: 120_000,
    reporters: ["default", "json"],
    outputFile: { json: ".test-results/vitest.json" },
    server: { deps: { inline: ["next-auth"] } },
  },
});

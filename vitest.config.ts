import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    include: ["tests/**/*.test.ts"],
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one on CI's two, where most suites wait on a database
    // server or a timer rather than the CPU (two workers took the suite from about 17 to 11 minutes there).
    maxWorkers: 2,
    testTimeout: 30_000,
    // Tests that want vectors give their contexts an embedding model; nothing else loads the local encoder.
    env: { EMBEDDING_MODEL: "none" },
    hookTimeout: 120_000,
    reporters: ["default", "json"],
    outputFile: { json: ".test-results/vitest.json" },
    server: { deps: { inline: ["next-auth"] } },
  },
});

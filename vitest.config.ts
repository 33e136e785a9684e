import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Test files that replace modules themselves (vi.mock and the like) need a module graph of their own. The files that
 * call routes through the route mocks share one per worker, with the mocks as a setup file run before each of them;
 * every other file shares its worker's modules with the files before it. Sharing saves evaluating the app's imports
 * again per file (docs/testing.md).
 */
const OWN_MOCKS = /\bvi\.(mock|doMock|doUnmock|unmock|stubGlobal|stubEnv|resetModules)\b/;
const ROUTE_MOCKS = /support\/route-(mocks|server)/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.join(dir, file));
}
const sources = testFiles("tests").map((file) => ({ file, source: readFileSync(file, "utf8") }));
const isolated = sources.filter(({ source }) => OWN_MOCKS.test(source)).map(({ file }) => file);
const routes = sources
  .filter(({ source }) => !OWN_MOCKS.test(source) && ROUTE_MOCKS.test(source))
  .map(({ file }) => file);

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    pool: "forks",
    // A worker per core and one more: vitest's default leaves one core free, one worker on CI's two (two took the
    // suite from about 17 to 11 minutes there), and some files spend seconds waiting on queues, child processes and
    // timeouts, which the extra worker fills (330 s against 310 s on two cores; docs/testing.md, "Time").
    maxWorkers: availableParallelism() + 1,
    // A limit for a hang, not a measure of speed (the bench measures that): a test that creates and migrates a PGlite
    // directory from nothing, twice, took over 30 s on a loaded two-core machine.
    testTimeout: 90_000,
    // Tests that want vectors give their contexts an embedding model; nothing else loads the local encoder.
    // The local encoder's threads for memories at the process's priority: beside vitest's other workers, on CI's two
    // busy cores, threads below it crawled (its test file took 118 s instead of about 10, docs/performance.md).
    env: { EMBEDDING_MODEL: "none", LOCAL_EMBEDDING_NICENESS: "0" },
    hookTimeout: 120_000,
    setupFiles: ["tests/support/file-setup.ts"],
    reporters: ["default", "json"],
    outputFile: { json: ".test-results/vitest.json" },
    server: { deps: { inline: ["next-auth"] } },
    projects: [
      { extends: true, test: { name: "isolated", include: isolated } },
      {
        extends: true,
        test: {
          name: "routes",
          include: routes,
          isolate: false,
          // Added to the root setup file (tests/support/file-setup.ts): project settings extend the root's.
          setupFiles: ["tests/support/route-mocks.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "shared",
          include: ["tests/**/*.test.ts"],
          exclude: [...isolated, ...routes],
          isolate: false,
        },
      },
    ],
  },
});

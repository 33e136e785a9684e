import { afterAll } from "vitest";
import { restoreEnv } from "./env";

// Runs before every test file (vitest's setupFiles). Files of the shared project run one after another in a worker's
// module graph (docs/testing.md), so what a file set with setEnv is undone when it ends, never inherited by the next.
afterAll(() => {
  restoreEnv();
});

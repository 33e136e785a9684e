import { vi } from "vitest";
import { resetConfigForTests } from "@/lib/config";

/**
 * Sets environment variables until `restoreEnv`, and has the app parse its configuration again: lib/config reads
 * `process.env` once per process.
 */
export function setEnv(variables: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
  resetConfigForTests();
}

/** Undoes every `setEnv`, and has the app parse its configuration again. */
export function restoreEnv(): void {
  vi.unstubAllEnvs();
  resetConfigForTests();
}

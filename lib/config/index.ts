import type { z } from "zod";
import { clearProcessState, processState } from "@/lib/process-state";
import { configSchema, crossCheck, VARIABLES, type VariableName } from "./schema";

export type { ModelPrice, PriceTable } from "./kinds";
export { MODEL_PROVIDERS, OFFLINE_MODEL_ID } from "./kinds";
export type { VariableName } from "./schema";

/** The app's configuration: every variable of lib/config/schema.ts as a value, defaults filled in. */
export type Config = DeepReadonly<z.output<typeof configSchema>>;

type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

type Env = Readonly<Record<string, string | undefined>>;

/** An environment with bad values: the message lists every one, by name, with what it must be. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The configuration is invalid (docs/configuration.md):\n${problems.map((line) => `  ${line}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * The configuration in `env`, or a ConfigError naming every variable at fault. Values are trimmed (secrets are kept
 * as given) and a blank one counts as unset, which takes the default.
 */
export function parseConfig(env: Env): Config {
  const input: Record<string, string | undefined> = {};
  for (const [name, variable] of Object.entries(VARIABLES)) {
    const raw = env[name];
    input[name] = raw === undefined || raw.trim() === "" ? undefined : "secret" in variable ? raw : raw.trim();
  }
  const result = configSchema.safeParse(input);
  const problems: string[] = [];
  const refuse = (name: VariableName, reason: string) => {
    const shown = "secret" in VARIABLES[name] || input[name] === undefined ? "" : ` (got "${input[name]}")`;
    problems.push(`${name} ${reason}${shown}.`);
  };
  for (const issue of result.error?.issues ?? []) refuse(issue.path[0] as VariableName, issue.message);
  for (const { name, reason } of crossCheck(input)) refuse(name, reason);
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return deepFreeze(result.data);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * This process's configuration, parsed from `process.env` on first use and kept: the server's start (and the
 * standalone worker's) reads it first, so a bad value stops the process there with the message.
 */
export function config(): Config {
  return processState("config", () => parseConfig(process.env));
}

/** Forgets the parsed configuration; only for tests, which change `process.env` while a process runs. */
export function resetConfigForTests(): void {
  clearProcessState("config");
}

import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, config, parseConfig } from "@/lib/config";
import { renderEnvExample, withReference } from "@/lib/config/reference";
import { VARIABLES } from "@/lib/config/schema";
import { restoreEnv, setEnv } from "../support/env";

const root = path.join(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("the configuration", () => {
  afterEach(restoreEnv);

  it("gives every unset or blank variable its default", () => {
    const defaults = {
      NODE_ENV: undefined,
      WORKER: "inline",
      DATABASE_URL: undefined,
      DATABASE_POOL_SIZE: 10,
      PGLITE_DIR: ".data/pglite",
      AUTH_SECRET: undefined,
      AUTH_GUESTS: true,
      AUTH_GITHUB_ID: undefined,
      AUTH_GITHUB_SECRET: undefined,
      ADMIN_EMAILS: [],
      GUEST_TTL_DAYS: 30,
      LOCAL_EMBEDDING_THREADS: 1,
      LOCAL_EMBEDDING_NICENESS: 19,
      CHAT_MODEL: "offline",
      CHAT_MODELS: [],
      CHAT_CONTEXT_TOKENS: 8_000,
      EXTRACTION_MODEL: "offline",
      EMBEDDING_MODEL: "local",
      MODEL_TIMEOUT_MS: 30_000,
      OPENAI_API_KEY: undefined,
      ANTHROPIC_API_KEY: undefined,
      GOOGLE_GENERATIVE_AI_API_KEY: undefined,
      AI_GATEWAY_API_KEY: undefined,
      OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
      OPENAI_COMPATIBLE_API_KEY: undefined,
      MODEL_PRICES: {},
      EXTRACTION_DAILY_BUDGET_USD: undefined,
      MEMORY_QUOTA: 100_000,
      GUEST_MEMORY_QUOTA: 2_000,
      CHAT_DAILY_TOKENS: undefined,
      GUEST_CHAT_DAILY_TOKENS: 200_000,
      EXTRACTION_DEBOUNCE_MS: 3_000,
      OPTIMIZER_DEBOUNCE_MS: 3_000,
      CONSOLIDATION_AFTER: 25,
      EXTRACTION_CONCURRENCY: 4,
      EXTRACTION_HEARTBEAT_SECONDS: 30,
      API_RATE_LIMIT_PER_MINUTE: 300,
      AUTH_RATE_LIMIT_PER_MINUTE: 30,
      AUTH_EMAIL_RATE_LIMIT_PER_MINUTE: 10,
      TRUST_PROXY: 0,
      WEBHOOK_ALLOW_PRIVATE: false,
      WEBHOOK_DELIVERY_RETENTION_DAYS: 30,
      OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
      OTEL_SERVICE_NAME: "memory-ledger",
      METRICS_TOKEN: undefined,
      METRICS_LOOP_WINDOW_SECONDS: 60,
    };
    expect(parseConfig({})).toStrictEqual(defaults);
    const blank = Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, " "]));
    expect(parseConfig(blank)).toStrictEqual(defaults);
    // The two defaults that name another variable follow it.
    expect(parseConfig({ CHAT_MODEL: "openai:gpt-5-mini", EXTRACTION_DEBOUNCE_MS: "500" })).toMatchObject({
      EXTRACTION_MODEL: "openai:gpt-5-mini",
      OPTIMIZER_DEBOUNCE_MS: 500,
    });
  });

  it("refuses bad values in one error naming every variable at fault, and never repeats a secret", () => {
    const env = {
      MEMORY_QUOTA: "lots",
      AUTH_GUESTS: "no",
      CHAT_MODEL: "gpt-4o",
      DATABASE_URL: "mysql://admin:hunter2@db/app",
      AUTH_GITHUB_ID: "Iv1.only-the-id",
      EXTRACTION_CONCURRENCY: "8",
    };
    let error: unknown;
    try {
      parseConfig(env);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      "DATABASE_URL must be a `postgres://` or `postgresql://` URL.",
      'AUTH_GUESTS must be `true` or `false` (got "no").',
      'CHAT_MODEL must be `offline` or `provider:model` (provider: openai, anthropic, google, gateway, openai-compatible) (got "gpt-4o").',
      'MEMORY_QUOTA must be a whole number of at least 1 (got "lots").',
      "AUTH_GITHUB_SECRET must be set with AUTH_GITHUB_ID (GitHub sign-in needs both).",
    ]);
    expect((error as ConfigError).message).toMatch(
      /^The configuration is invalid \(docs\/configuration\.md\):\n {2}DATABASE_URL/,
    );
    expect((error as ConfigError).message).not.toContain("hunter2");
  });

  it("is parsed from the environment once, frozen, until a test changes the environment", () => {
    setEnv({ MEMORY_QUOTA: "7" });
    const first = config();
    expect(first.MEMORY_QUOTA).toBe(7);
    expect(config()).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.ADMIN_EMAILS)).toBe(true);
    setEnv({ MEMORY_QUOTA: "8" });
    expect(config().MEMORY_QUOTA).toBe(8);
  });
});

describe("the configuration reference", () => {
  it("in docs/configuration.md and .env.example is what lib/config/schema.ts generates (npm run docs:config)", () => {
    const page = read("docs/configuration.md");
    expect(page).toBe(withReference(page));
    expect(read(".env.example")).toBe(renderEnvExample());
  });
});

import { z } from "zod";
import {
  choice,
  defaulted,
  embeddingModel,
  flag,
  isModelId,
  list,
  MODEL_ID_ACCEPTS,
  modelId,
  modelPrices,
  OFFLINE_MODEL_ID,
  optional,
  positiveAmount,
  text,
  trustedProxies,
  url,
  wholeNumber,
} from "./kinds";

/**
 * Every environment variable the app reads: how its text becomes a value, what it accepts, its default and one line
 * on what it does. lib/config/index.ts parses the environment with it; scripts/config-docs.ts writes the reference in
 * docs/configuration.md and .env.example from it. The kinds of value they take are in ./kinds.ts.
 */

export const GROUPS = [
  "Server",
  "Database",
  "Sign-in and accounts",
  "Models",
  "Cost and quotas",
  "Background work",
  "Rate limits",
  "Webhooks",
  "Observability",
] as const;

/**
 * One variable. Its schema reads the trimmed text (blank counts as unset: `undefined`); a refusal's message is
 * "must be" + `accepts` unless the schema says more.
 */
export interface Variable<S extends z.ZodType = z.ZodType> {
  schema: S;
  group: (typeof GROUPS)[number];
  /** What it does, one line. */
  description: string;
  /** What values it takes, as the reference and the refusal word it. */
  accepts: string;
  /** The value when unset, as the reference words it. */
  default: string;
  /** Never repeated in a message or trimmed: keys, secrets, a URL that may hold a password. */
  secret?: true;
  /** Left out of .env.example: set by the tools that run the app, never by an env file. */
  envFile?: false;
}

export const VARIABLES = {
  NODE_ENV: {
    ...optional(choice(["development", "production", "test"]), "set by `next dev` / `next start`"),
    group: "Server",
    description: "`production` requires AUTH_SECRET; `development` relaxes the page CSP for hot reload",
    envFile: false,
  },
  WORKER: {
    ...defaulted(choice(["inline", "off"]), "inline"),
    group: "Server",
    description: "`inline` runs the background worker in the web process; `off` leaves it to `npm run worker`",
  },
  DATABASE_URL: {
    ...optional(url("a `postgres://` or `postgresql://` URL", /^postgres(ql)?:\/\//), "unset (embedded PGlite)"),
    group: "Database",
    description: "PostgreSQL connection string; unset, the app runs on embedded PGlite at PGLITE_DIR",
    secret: true,
  },
  DATABASE_POOL_SIZE: {
    ...defaulted(wholeNumber(1, 500), 10),
    group: "Database",
    description: 'Connections this process keeps to PostgreSQL (the job queue keeps 4 more; see "Running distributed")',
  },
  PGLITE_DIR: {
    ...defaulted(text("a directory path"), ".data/pglite"),
    group: "Database",
    description: "Where embedded PGlite keeps its files",
  },
  AUTH_SECRET: {
    ...optional(text("text"), "generated into `.data/` outside production"),
    group: "Sign-in and accounts",
    description: "Signs session cookies; `npm start` (production) refuses to start without it",
    secret: true,
  },
  AUTH_GUESTS: {
    ...defaulted(flag(), true),
    group: "Sign-in and accounts",
    description: "Visitors get a guest session; `false` sends them to `/login`",
  },
  AUTH_GITHUB_ID: {
    ...optional(text()),
    group: "Sign-in and accounts",
    description: 'GitHub OAuth app client id; with AUTH_GITHUB_SECRET, enables "Continue with GitHub"',
  },
  AUTH_GITHUB_SECRET: {
    ...optional(text()),
    group: "Sign-in and accounts",
    description: "GitHub OAuth app client secret; set with AUTH_GITHUB_ID or not at all",
    secret: true,
  },
  ADMIN_EMAILS: {
    ...defaulted(
      list(
        "comma-separated email addresses",
        (entry) => /^[^\s@]+@[^\s@]+$/.test(entry),
        (entry) => entry.toLowerCase(),
      ),
      [],
      "none",
    ),
    group: "Sign-in and accounts",
    description:
      "Emails that get the admin role once an OAuth provider (GitHub) reports them verified; registering one never does",
  },
  GUEST_TTL_DAYS: {
    ...defaulted(wholeNumber(1, 36_500), 30),
    group: "Sign-in and accounts",
    description: "Days a guest may go without a request before their account and everything in it is deleted",
  },
  CHAT_MODEL: {
    ...defaulted(modelId(), OFFLINE_MODEL_ID),
    group: "Models",
    description: "The chat's default model",
  },
  CHAT_MODELS: {
    ...defaulted(list(`comma-separated ids, each ${MODEL_ID_ACCEPTS}`, isModelId), [], "none"),
    group: "Models",
    description: "Extra models the chat's model selector offers (CHAT_MODEL and `offline` always are)",
  },
  CHAT_CONTEXT_TOKENS: {
    ...defaulted(wholeNumber(500), 8_000),
    group: "Models",
    description: "Token budget of the conversation sent verbatim to the chat model; older turns fold into a summary",
  },
  EXTRACTION_MODEL: {
    ...optional(modelId(), "`CHAT_MODEL`"),
    group: "Models",
    description: "Model of the background memory manager",
  },
  EMBEDDING_MODEL: {
    ...defaulted(embeddingModel(), "local"),
    group: "Models",
    description: "Model that embeds memories for semantic search; `local` needs no key or network",
  },
  LOCAL_EMBEDDING_THREADS: {
    ...defaulted(wholeNumber(1, 16), 1),
    group: "Models",
    description:
      "Worker threads of the local embedding model per process for memories' vectors, each with its own copy (~100 MB); searches' queries have one more; inference never runs on the event loop",
  },
  LOCAL_EMBEDDING_NICENESS: {
    ...defaulted(wholeNumber(0, 19), 19),
    group: "Models",
    description:
      "On Linux, how many steps of `nice` below the process the local embedding model's threads for memories' vectors run, so that they yield the CPU to requests; 0 keeps the process's priority (the searches' query thread always does; so do the threads elsewhere)",
  },
  MODEL_TIMEOUT_MS: {
    ...defaulted(wholeNumber(100, 600_000), 30_000),
    group: "Models",
    description: "A model call (chat or background) that sends nothing this many milliseconds fails",
  },
  OPENAI_API_KEY: { ...optional(text("an API key")), group: "Models", description: "OpenAI API key", secret: true },
  ANTHROPIC_API_KEY: {
    ...optional(text("an API key")),
    group: "Models",
    description: "Anthropic API key",
    secret: true,
  },
  GOOGLE_GENERATIVE_AI_API_KEY: {
    ...optional(text("an API key")),
    group: "Models",
    description: "Google Generative AI API key",
    secret: true,
  },
  AI_GATEWAY_API_KEY: {
    ...optional(text("an API key")),
    group: "Models",
    description: "Vercel AI Gateway API key",
    secret: true,
  },
  OPENAI_COMPATIBLE_BASE_URL: {
    ...defaulted(url("an `http://` or `https://` URL", /^https?:\/\//), "http://localhost:11434/v1"),
    group: "Models",
    description: "Base URL of the server behind `openai-compatible:` models (Ollama, vLLM, LM Studio)",
  },
  OPENAI_COMPATIBLE_API_KEY: {
    ...optional(text("an API key")),
    group: "Models",
    description: "API key for that server, if it wants one",
    secret: true,
  },
  MODEL_PRICES: {
    ...defaulted(modelPrices(), {}, "the built-in table"),
    group: "Cost and quotas",
    description: "Prices laid over the built-in table in `lib/ai/prices.ts`, adding or overriding entries",
  },
  EXTRACTION_DAILY_BUDGET_USD: {
    ...optional(positiveAmount("US dollars"), "unset (no budget)"),
    group: "Cost and quotas",
    description: "Spend per user per UTC day (chat + extraction) at which background extraction stops until tomorrow",
  },
  MEMORY_QUOTA: {
    ...defaulted(wholeNumber(1), 100_000),
    group: "Cost and quotas",
    description: "Active memories one account may hold; a write past it is refused with 403 `quota_exceeded`",
  },
  GUEST_MEMORY_QUOTA: {
    ...defaulted(wholeNumber(1), 2_000),
    group: "Cost and quotas",
    description: "Active memories one guest may hold (anyone can make a guest)",
  },
  CHAT_DAILY_TOKENS: {
    ...optional(wholeNumber(1), "unset (no cap)"),
    group: "Cost and quotas",
    description: "Model tokens (in + out) one account's chat may spend per UTC day",
  },
  GUEST_CHAT_DAILY_TOKENS: {
    ...defaulted(wholeNumber(1), 200_000),
    group: "Cost and quotas",
    description: "Model tokens (in + out) one guest's chat may spend per UTC day",
  },
  EXTRACTION_DEBOUNCE_MS: {
    ...defaulted(wholeNumber(0), 3_000),
    group: "Background work",
    description: "Quiet period in milliseconds after a thread's last exchange before background extraction",
  },
  OPTIMIZER_DEBOUNCE_MS: {
    ...optional(wholeNumber(0), "`EXTRACTION_DEBOUNCE_MS`"),
    group: "Background work",
    description: "Quiet period in milliseconds after a user's last feedback before the instructions optimizer runs",
  },
  CONSOLIDATION_AFTER: {
    ...defaulted(wholeNumber(1), 25),
    group: "Background work",
    description:
      "New memories since a user's last consolidation run after which background extraction queues the next run",
  },
  EXTRACTION_CONCURRENCY: {
    ...defaulted(wholeNumber(1, 64), 4),
    group: "Background work",
    description: "Extraction jobs one worker process runs at once: a stalled model call holds one slot only",
  },
  EXTRACTION_HEARTBEAT_SECONDS: {
    ...defaulted(wholeNumber(10), 30),
    group: "Background work",
    description: "Seconds without a worker's heartbeat before its job is retried by another worker",
  },
  API_RATE_LIMIT_PER_MINUTE: {
    ...defaulted(wholeNumber(1), 300),
    group: "Rate limits",
    description: "Requests per API key, and per signed-in user, per minute, shared by all web processes (429)",
  },
  AUTH_RATE_LIMIT_PER_MINUTE: {
    ...defaulted(wholeNumber(1), 30),
    group: "Rate limits",
    description: "Sign-ins, registrations and new guest sessions, each, per client address per minute",
  },
  AUTH_EMAIL_RATE_LIMIT_PER_MINUTE: {
    ...defaulted(wholeNumber(1), 10),
    group: "Rate limits",
    description: "Sign-in attempts per email address from one client address per minute",
  },
  TRUST_PROXY: {
    ...defaulted(trustedProxies(), 0),
    group: "Rate limits",
    description:
      "Reverse proxies in front of the app that append to `X-Forwarded-For`; 0 ignores the header and counts by socket",
  },
  WEBHOOK_ALLOW_PRIVATE: {
    ...defaulted(flag(), false),
    group: "Webhooks",
    description: "`true` lets webhooks target private and loopback addresses over plain http (tests, local setups)",
  },
  WEBHOOK_DELIVERY_RETENTION_DAYS: {
    ...defaulted(wholeNumber(1, 36_500), 30),
    group: "Webhooks",
    description: "Days a finished webhook delivery stays in the delivery log before the daily prune",
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    ...optional(url("an `http://` or `https://` URL", /^https?:\/\//), "unset (no traces or metrics sent)"),
    group: "Observability",
    description:
      "OpenTelemetry collector (OTLP/HTTP): traces go to `/v1/traces` and metrics to `/v1/metrics` under it; other `OTEL_EXPORTER_OTLP_*` variables are read by the exporter",
  },
  OTEL_SERVICE_NAME: {
    ...defaulted(text(), "memory-ledger"),
    group: "Observability",
    description: "The `service.name` the process's traces and metrics carry",
  },
  METRICS_TOKEN: {
    ...optional(text(), "unset (admins only)"),
    group: "Observability",
    description:
      "`Authorization: Bearer` token that may read `GET /api/metrics` (Prometheus text) besides an admin's session",
    secret: true,
  },
  METRICS_LOOP_WINDOW_SECONDS: {
    ...defaulted(wholeNumber(1, 3_600), 60),
    group: "Observability",
    description:
      "Length of the windows the event-loop delay gauges (p99, max) cover: each reading is of the window under way",
  },
} satisfies Record<string, Variable>;

export type VariableName = keyof typeof VARIABLES;

type Shape = { [Name in VariableName]: (typeof VARIABLES)[Name]["schema"] };

const shape = Object.fromEntries(
  Object.entries(VARIABLES).map(([name, variable]) => [name, variable.schema]),
) as unknown as Shape;

/** The environment's variables as values, with the defaults that name another variable filled in. */
export const configSchema = z.object(shape).transform((parsed) => ({
  ...parsed,
  EXTRACTION_MODEL: parsed.EXTRACTION_MODEL ?? parsed.CHAT_MODEL,
  OPTIMIZER_DEBOUNCE_MS: parsed.OPTIMIZER_DEBOUNCE_MS ?? parsed.EXTRACTION_DEBOUNCE_MS,
}));

/** Refusals that concern more than one variable, over the trimmed text; each names the variable it blames. */
export function crossCheck(
  input: Readonly<Record<string, string | undefined>>,
): { name: VariableName; reason: string }[] {
  const issues: { name: VariableName; reason: string }[] = [];
  if (input.AUTH_GITHUB_ID && !input.AUTH_GITHUB_SECRET) {
    issues.push({ name: "AUTH_GITHUB_SECRET", reason: "must be set with AUTH_GITHUB_ID (GitHub sign-in needs both)" });
  }
  if (input.AUTH_GITHUB_SECRET && !input.AUTH_GITHUB_ID) {
    issues.push({ name: "AUTH_GITHUB_ID", reason: "must be set with AUTH_GITHUB_SECRET (GitHub sign-in needs both)" });
  }
  return issues;
}

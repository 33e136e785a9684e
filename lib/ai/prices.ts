import { z } from "zod";
import type { TokenUsage } from "@/lib/memory/usage";
import { OFFLINE_MODEL_ID } from "./registry";

type Env = Readonly<Record<string, string | undefined>>;

/** USD per million tokens, as providers list them. */
export interface ModelPrice {
  input: number;
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * List prices of common hosted models (standard tier, uncached input) when this table was written. Providers change
 * them: MODEL_PRICES overrides or adds entries without a release.
 */
export const DEFAULT_PRICES: PriceTable = {
  "openai:gpt-5": { input: 1.25, output: 10 },
  "openai:gpt-5-mini": { input: 0.25, output: 2 },
  "openai:gpt-5-nano": { input: 0.05, output: 0.4 },
  "openai:gpt-4.1": { input: 2, output: 8 },
  "openai:gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "openai:gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "openai:gpt-4o": { input: 2.5, output: 10 },
  "openai:gpt-4o-mini": { input: 0.15, output: 0.6 },
  "anthropic:claude-opus-4-1": { input: 15, output: 75 },
  "anthropic:claude-sonnet-4-5": { input: 3, output: 15 },
  "anthropic:claude-sonnet-4-6": { input: 3, output: 15 },
  "anthropic:claude-haiku-4-5": { input: 1, output: 5 },
  "google:gemini-2.5-pro": { input: 1.25, output: 10 },
  "google:gemini-2.5-flash": { input: 0.3, output: 2.5 },
  "google:gemini-2.5-flash-lite": { input: 0.1, output: 0.4 },
  "google:gemini-2.0-flash": { input: 0.1, output: 0.4 },
  [OFFLINE_MODEL_ID]: { input: 0, output: 0 },
};

/** Models served by the operator's own machine (Ollama, vLLM, LM Studio) cost nothing per token. */
const LOCAL_PROVIDER = "openai-compatible:";

const price = z.strictObject({
  input: z.number().finite().nonnegative(),
  output: z.number().finite().nonnegative(),
});
const MODEL_ID = /^(offline|[a-z][\w-]*:\S+)$/;
const priceOverrides = z.record(z.string(), price).superRefine((table, context) => {
  for (const id of Object.keys(table)) {
    if (!MODEL_ID.test(id)) context.addIssue({ code: "custom", path: [id], message: "not offline or provider:model" });
  }
});

export class PriceConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PriceConfigError";
  }
}

const parsed = new Map<string, PriceTable>();

/**
 * The price table: the defaults with MODEL_PRICES (JSON, `{"openai:gpt-4o-mini":{"input":0.15,"output":0.6}}`)
 * laid over them. A malformed value throws, naming the entry at fault, rather than silently pricing at zero.
 */
export function modelPrices(env: Env = process.env): PriceTable {
  const raw = env.MODEL_PRICES?.trim() ?? "";
  if (raw === "") return DEFAULT_PRICES;
  const cached = parsed.get(raw);
  if (cached) return cached;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new PriceConfigError(
      'MODEL_PRICES is not valid JSON: expected {"provider:model":{"input":<USD per 1M tokens>,"output":<USD per 1M tokens>}}.',
    );
  }
  const result = priceOverrides.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues
      .map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`)
      .join("; ");
    throw new PriceConfigError(`MODEL_PRICES is invalid (${issues}).`);
  }
  const table = { ...DEFAULT_PRICES, ...result.data };
  parsed.set(raw, table);
  return table;
}

/**
 * The price of a model id: its entry; for `gateway:provider/model`, the provider's own entry unless the gateway id
 * has one; zero for local models; null when nothing is known (the ledger then records the tokens without a cost).
 */
export function priceOf(table: PriceTable, modelId: string): ModelPrice | null {
  const own = table[modelId];
  if (own) return own;
  const gateway = /^gateway:([^/]+)\/(.+)$/.exec(modelId);
  if (gateway) return table[`${gateway[1]}:${gateway[2]}`] ?? null;
  if (modelId.startsWith(LOCAL_PROVIDER)) return { input: 0, output: 0 };
  return null;
}

/** The cost in USD of the tokens at that price; null without a price. */
export function costOf(modelPrice: ModelPrice | null, usage: TokenUsage): number | null {
  if (!modelPrice) return null;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return (input * modelPrice.input + output * modelPrice.output) / 1_000_000;
}

/** What recorded usage of `modelId` costs with the configured table: what chat and extraction are handed. */
export function pricingFor(modelId: string, env: Env = process.env): (usage: TokenUsage) => number | null {
  const modelPrice = priceOf(modelPrices(env), modelId);
  return (usage) => costOf(modelPrice, usage);
}

const budget = z.coerce
  .number({ error: "must be a number" })
  .finite("must be a finite number")
  .positive("must be a positive number of US dollars");

/**
 * EXTRACTION_DAILY_BUDGET_USD: what one user may spend on models per UTC day (chat and extraction together) before
 * background extraction stops until the next day. Unset or empty means no budget; anything else invalid throws.
 */
export function extractionDailyBudgetUsd(env: Env = process.env): number | undefined {
  const raw = env.EXTRACTION_DAILY_BUDGET_USD?.trim() ?? "";
  if (raw === "") return undefined;
  const result = budget.safeParse(raw);
  if (!result.success) {
    throw new PriceConfigError(
      `EXTRACTION_DAILY_BUDGET_USD ${result.error.issues[0]?.message ?? "is invalid"} (got "${raw}").`,
    );
  }
  return result.data;
}

/** Reads both settings once, so a server with a typo in them refuses to start instead of failing per request. */
export function checkUsageConfig(env: Env = process.env): void {
  modelPrices(env);
  extractionDailyBudgetUsd(env);
}

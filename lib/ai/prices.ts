import { type Config, config, type ModelPrice, OFFLINE_MODEL_ID, type PriceTable } from "@/lib/config";
import type { TokenUsage } from "@/lib/memory/usage";

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

/** The price table: the defaults with MODEL_PRICES laid over them. */
export function modelPrices(settings: Config = config()): PriceTable {
  return { ...DEFAULT_PRICES, ...settings.MODEL_PRICES };
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
export function pricingFor(modelId: string, settings: Config = config()): (usage: TokenUsage) => number | null {
  const modelPrice = priceOf(modelPrices(settings), modelId);
  return (usage) => costOf(modelPrice, usage);
}

import { describe, expect, it } from "vitest";
import { costOf, DEFAULT_PRICES, modelPrices, priceOf, pricingFor } from "@/lib/ai/prices";
import { ConfigError, parseConfig } from "@/lib/config";

describe("model prices", () => {
  it("prices usage from the table in USD per million tokens", () => {
    const price = priceOf(DEFAULT_PRICES, "openai:gpt-4o-mini");
    expect(price).toEqual({ input: 0.15, output: 0.6 });
    // 2M in × $0.15 + 1M out × $0.60
    expect(costOf(price, { inputTokens: 2_000_000, outputTokens: 1_000_000 })).toBeCloseTo(0.9, 10);
    expect(
      pricingFor("anthropic:claude-sonnet-4-5", parseConfig({}))({ inputTokens: 1_000, outputTokens: 100 }),
    ).toBeCloseTo(0.0045, 10);
  });

  it("costs nothing for the offline model and local models, and has no price for an unknown one", () => {
    expect(pricingFor("offline", parseConfig({}))({ inputTokens: 500, outputTokens: 500 })).toBe(0);
    expect(pricingFor("openai-compatible:llama3.1", parseConfig({}))({ inputTokens: 500, outputTokens: 500 })).toBe(0);
    expect(pricingFor("openai:some-future-model", parseConfig({}))({ inputTokens: 500, outputTokens: 500 })).toBeNull();
    expect(priceOf(DEFAULT_PRICES, "gateway:openai/gpt-4o-mini")).toEqual({ input: 0.15, output: 0.6 });
  });

  it("lets MODEL_PRICES override an entry and add new ones", () => {
    const env = parseConfig({
      MODEL_PRICES: JSON.stringify({
        "openai:gpt-4o-mini": { input: 1, output: 2 },
        "openai-compatible:big-local": { input: 0.5, output: 0.5 },
      }),
    });
    expect(modelPrices(env)["openai:gpt-4o-mini"]).toEqual({ input: 1, output: 2 });
    expect(modelPrices(env)["openai:gpt-4o"]).toEqual(DEFAULT_PRICES["openai:gpt-4o"]);
    expect(pricingFor("openai:gpt-4o-mini", env)({ inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBe(3);
    expect(pricingFor("openai-compatible:big-local", env)({ inputTokens: 2_000_000 })).toBe(1);
  });

  it("refuses an invalid MODEL_PRICES with a message naming the fault", () => {
    expect(() => parseConfig({ MODEL_PRICES: "{not json" })).toThrow(/MODEL_PRICES is not valid JSON/);
    expect(() => parseConfig({ MODEL_PRICES: '{"openai:gpt-4o":{"input":-1,"output":2}}' })).toThrow(
      /MODEL_PRICES is invalid \(openai:gpt-4o\.input: /,
    );
    expect(() => parseConfig({ MODEL_PRICES: '{"gpt-4o":{"input":1,"output":2}}' })).toThrow(/provider:model/);
    expect(() => parseConfig({ MODEL_PRICES: '{"openai:gpt-4o":{"input":1}}' })).toThrow(ConfigError);
    expect(() => parseConfig({ MODEL_PRICES: "[]" })).toThrow(ConfigError);
  });

  it("reads EXTRACTION_DAILY_BUDGET_USD as an optional positive amount", () => {
    const budget = (value?: string) => parseConfig({ EXTRACTION_DAILY_BUDGET_USD: value }).EXTRACTION_DAILY_BUDGET_USD;
    expect(budget()).toBeUndefined();
    expect(budget(" ")).toBeUndefined();
    expect(budget("2.5")).toBe(2.5);
    for (const bad of ["0", "-1", "five", "Infinity"]) {
      expect(() => budget(bad), bad).toThrow(/EXTRACTION_DAILY_BUDGET_USD must be/);
    }
  });
});

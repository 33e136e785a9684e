import { describe, expect, it } from "vitest";
import { chatDailyTokensFor, checkQuotaConfig, memoryQuotaFor } from "@/lib/server/quotas";

describe("quota settings", () => {
  it("default when unset, read when a whole number of at least 1, refused otherwise", () => {
    expect(memoryQuotaFor(false, {})).toBe(100_000);
    expect(memoryQuotaFor(true, {})).toBe(2_000);
    expect(chatDailyTokensFor(false, {})).toBeUndefined();
    expect(chatDailyTokensFor(true, {})).toBe(200_000);
    const env = {
      MEMORY_QUOTA: "50",
      GUEST_MEMORY_QUOTA: " 5 ",
      CHAT_DAILY_TOKENS: "1000",
      GUEST_CHAT_DAILY_TOKENS: "",
    };
    expect([memoryQuotaFor(false, env), memoryQuotaFor(true, env)]).toEqual([50, 5]);
    expect([chatDailyTokensFor(false, env), chatDailyTokensFor(true, env)]).toEqual([1000, 200_000]);
    expect(() => checkQuotaConfig({ MEMORY_QUOTA: "lots" })).toThrow('MEMORY_QUOTA must be a number (got "lots").');
    expect(() => checkQuotaConfig({ GUEST_MEMORY_QUOTA: "0" })).toThrow("GUEST_MEMORY_QUOTA must be at least 1");
    expect(() => checkQuotaConfig({ CHAT_DAILY_TOKENS: "1.5" })).toThrow("CHAT_DAILY_TOKENS must be a whole number");
    expect(() => checkQuotaConfig({ GUEST_CHAT_DAILY_TOKENS: "-1" })).toThrow("GUEST_CHAT_DAILY_TOKENS must be");
  });
});

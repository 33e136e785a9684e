import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { chatDailyTokensFor, memoryQuotaFor } from "@/lib/server/quotas";

describe("quota settings", () => {
  it("default when unset, read when a whole number of at least 1, refused otherwise", () => {
    const defaults = parseConfig({});
    expect(memoryQuotaFor(false, defaults)).toBe(100_000);
    expect(memoryQuotaFor(true, defaults)).toBe(2_000);
    expect(chatDailyTokensFor(false, defaults)).toBeUndefined();
    expect(chatDailyTokensFor(true, defaults)).toBe(200_000);
    const settings = parseConfig({
      MEMORY_QUOTA: "50",
      GUEST_MEMORY_QUOTA: " 5 ",
      CHAT_DAILY_TOKENS: "1000",
      GUEST_CHAT_DAILY_TOKENS: "",
    });
    expect([memoryQuotaFor(false, settings), memoryQuotaFor(true, settings)]).toEqual([50, 5]);
    expect([chatDailyTokensFor(false, settings), chatDailyTokensFor(true, settings)]).toEqual([1000, 200_000]);
    const refusal = (name: string, value: string) => `${name} must be a whole number of at least 1 (got "${value}").`;
    expect(() => parseConfig({ MEMORY_QUOTA: "lots" })).toThrow(refusal("MEMORY_QUOTA", "lots"));
    expect(() => parseConfig({ GUEST_MEMORY_QUOTA: "0" })).toThrow(refusal("GUEST_MEMORY_QUOTA", "0"));
    expect(() => parseConfig({ CHAT_DAILY_TOKENS: "1.5" })).toThrow(refusal("CHAT_DAILY_TOKENS", "1.5"));
    expect(() => parseConfig({ GUEST_CHAT_DAILY_TOKENS: "-1" })).toThrow(refusal("GUEST_CHAT_DAILY_TOKENS", "-1"));
  });
});

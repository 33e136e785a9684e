import { type Config, config } from "@/lib/config";

/**
 * MEMORY_QUOTA and GUEST_MEMORY_QUOTA: the most active memories one user may hold. Guests get the smaller one: anyone
 * can make a guest, so it bounds what an anonymous visitor can store.
 */
export function memoryQuotaFor(isGuest: boolean, settings: Config = config()): number {
  return isGuest ? settings.GUEST_MEMORY_QUOTA : settings.MEMORY_QUOTA;
}

/**
 * CHAT_DAILY_TOKENS (unset: no cap) and GUEST_CHAT_DAILY_TOKENS: the model tokens, in and out, one user's chat may
 * spend per UTC day. Guests are capped by default because any visitor can chat as one, with any configured model, on
 * the operator's provider account.
 */
export function chatDailyTokensFor(isGuest: boolean, settings: Config = config()): number | undefined {
  return isGuest ? settings.GUEST_CHAT_DAILY_TOKENS : settings.CHAT_DAILY_TOKENS;
}

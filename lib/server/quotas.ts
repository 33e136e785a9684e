import { z } from "zod";

type Env = Readonly<Record<string, string | undefined>>;

/** A quota's setting: a whole number of at least 1, or unset for its default. */
const quotaSchema = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(1, "must be at least 1");

/** A configuration value that is present but not a quota; the server refuses to start with it (lib/server/start.ts). */
export class QuotaConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QuotaConfigError";
  }
}

/** `name`'s value as a quota; `fallback` when unset or empty (undefined: no quota). Anything else throws. */
function quotaFrom(env: Env, name: string, fallback: number | undefined): number | undefined {
  const raw = env[name]?.trim() ?? "";
  if (raw === "") return fallback;
  const result = quotaSchema.safeParse(raw);
  if (!result.success) {
    throw new QuotaConfigError(`${name} ${result.error.issues[0]?.message ?? "is invalid"} (got "${raw}").`);
  }
  return result.data;
}

/**
 * MEMORY_QUOTA (default 100,000) and GUEST_MEMORY_QUOTA (default 2,000): the most active memories one user may hold.
 * Guests get the smaller one: anyone can make a guest, so it bounds what an anonymous visitor can store.
 */
export function memoryQuotaFor(isGuest: boolean, env: Env = process.env): number {
  return isGuest
    ? (quotaFrom(env, "GUEST_MEMORY_QUOTA", 2_000) as number)
    : (quotaFrom(env, "MEMORY_QUOTA", 100_000) as number);
}

/**
 * CHAT_DAILY_TOKENS (unset: no cap) and GUEST_CHAT_DAILY_TOKENS (default 200,000): the model tokens, in and out, one
 * user's chat may spend per UTC day. Guests are capped by default because any visitor can chat as one, with any
 * configured model, on the operator's provider account.
 */
export function chatDailyTokensFor(isGuest: boolean, env: Env = process.env): number | undefined {
  return isGuest ? quotaFrom(env, "GUEST_CHAT_DAILY_TOKENS", 200_000) : quotaFrom(env, "CHAT_DAILY_TOKENS", undefined);
}

/** Reads every quota setting once, so a server with a typo in one refuses to start instead of failing per request. */
export function checkQuotaConfig(env: Env = process.env): void {
  for (const isGuest of [false, true]) {
    memoryQuotaFor(isGuest, env);
    chatDailyTokensFor(isGuest, env);
  }
}

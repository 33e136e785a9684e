/** The limit key of every client whose address cannot be trusted: they share one budget. */
export const UNKNOWN_CLIENT = "unknown-client";

/**
 * TRUST_PROXY: how many reverse proxies in front of the app append to X-Forwarded-For (`true` = 1). Unset or 0, the
 * header is the client's own claim (Next.js passes on whatever it was sent), so it is ignored.
 */
export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  const value = env.TRUST_PROXY?.trim().toLowerCase();
  if (value === "true") return 1;
  const hops = Number(value);
  return Number.isInteger(hops) && hops > 0 ? hops : 0;
}

/**
 * The client's address for rate limits. Each trusted proxy appends the address it received the request from, so the
 * client is the entry that many places from the right; entries further left are whatever the client sent. Route
 * handlers never see the socket, so without trusted proxies every client is UNKNOWN_CLIENT.
 */
export function clientAddress(headers: Headers, env: Record<string, string | undefined> = process.env): string {
  const hops = trustedProxyHops(env);
  if (hops === 0) return UNKNOWN_CLIENT;
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const address = entries.at(-hops);
  return address && address.length <= 64 ? address : UNKNOWN_CLIENT;
}

/**
 * Request budgets (per API key, and per user for session requests): a fixed one-minute window counted in this
 * process. With several web processes each one counts separately, so the effective limit is the per-process limit
 * times the number of processes.
 */
export const RATE_LIMIT_WINDOW_MS = 60_000;
const DEFAULT_LIMIT_PER_MINUTE = 300;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class FixedWindowLimiter {
  readonly #windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly limit: () => number,
    private readonly windowMs = RATE_LIMIT_WINDOW_MS,
  ) {}

  take(id: string, now = Date.now()): RateDecision {
    const current = this.#windows.get(id);
    const window = current && now - current.startedAt < this.windowMs ? current : { startedAt: now, count: 0 };
    if (window.count >= this.limit()) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000)),
      };
    }
    window.count += 1;
    this.#windows.set(id, window);
    if (this.#windows.size > 10_000) this.#dropExpired(now);
    return { allowed: true };
  }

  #dropExpired(now: number): void {
    for (const [id, window] of this.#windows) {
      if (now - window.startedAt >= this.windowMs) this.#windows.delete(id);
    }
  }
}

/** API_RATE_LIMIT_PER_MINUTE (per key, and per user for session requests), read per request so an operator's change applies on restart and tests can lower it. */
export function configuredRateLimit(env: Record<string, string | undefined> = process.env): number {
  return limitFrom(env.API_RATE_LIMIT_PER_MINUTE, DEFAULT_LIMIT_PER_MINUTE);
}

/** A per-minute limit from an environment value: a positive integer, else the default. */
export function limitFrom(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

export const apiKeyLimiter = new FixedWindowLimiter(() => configuredRateLimit());
/** Session-authenticated API requests, per user: a browser session gets the same budget as a key. */
export const sessionLimiter = new FixedWindowLimiter(() => configuredRateLimit());

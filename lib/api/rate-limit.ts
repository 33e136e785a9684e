import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";

/**
 * Request budgets (per API key, per user for session requests, and the sign-in limits): a fixed window per key,
 * counted in Postgres so every web process draws on the same budget. The request path costs one statement: an upsert
 * that starts a new window when the last one has ended and otherwise adds one to its count. Keys are stored hashed:
 * the table never holds the email addresses and client addresses the sign-in limits count by.
 */
export const RATE_LIMIT_WINDOW_MS = 60_000;
const DEFAULT_LIMIT_PER_MINUTE = 300;

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class SharedWindowLimiter {
  readonly #lastPruneAt = new WeakMap<Database, number>();

  /** `name` keeps this limiter's keys apart from the others' in the one table. */
  constructor(
    readonly name: string,
    private readonly limit: () => number,
    private readonly windowMs = RATE_LIMIT_WINDOW_MS,
  ) {}

  async take(database: Database, id: string, now = Date.now()): Promise<RateDecision> {
    const startsNew = new Date(now).toISOString();
    const endedBefore = new Date(now - this.windowMs).toISOString();
    // Refused requests are counted too: the count only decides, and the window ends on time regardless.
    const [row] = await database.unbound.rows<{ count: number; window_start: string | Date }>(sql`
      insert into rate_limit_windows (limiter, key, window_start, count)
      values (${this.name}, ${storedKey(id)}, ${startsNew}::timestamptz, 1)
      on conflict (limiter, key) do update set
        count = case when rate_limit_windows.window_start <= ${endedBefore}::timestamptz then 1
                     else rate_limit_windows.count + 1 end,
        window_start = case when rate_limit_windows.window_start <= ${endedBefore}::timestamptz
                            then excluded.window_start else rate_limit_windows.window_start end
      returning count, window_start`);
    this.#pruneNowAndThen(database);
    if (!row || row.count <= this.limit()) return { allowed: true };
    const windowEnds = new Date(row.window_start).getTime() + this.windowMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now) / 1000)) };
  }

  /** Drops this limiter's ended windows once a window per process (by the wall clock), off the request's path. */
  #pruneNowAndThen(database: Database): void {
    const now = Date.now();
    if (now - (this.#lastPruneAt.get(database) ?? 0) < this.windowMs) return;
    this.#lastPruneAt.set(database, now);
    const endedBefore = new Date(now - this.windowMs).toISOString();
    database.unbound
      .rows(
        sql`delete from rate_limit_windows where limiter = ${this.name} and window_start <= ${endedBefore}::timestamptz`,
      )
      .catch(() => {});
  }
}

/** The key as stored: a SHA-256 of what is counted. */
export function storedKey(id: string): string {
  return createHash("sha256").update(id).digest("base64url");
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

export const apiKeyLimiter = new SharedWindowLimiter("api-key", () => configuredRateLimit());
/** Session-authenticated API requests, per user: a browser session gets the same budget as a key. */
export const sessionLimiter = new SharedWindowLimiter("session", () => configuredRateLimit());

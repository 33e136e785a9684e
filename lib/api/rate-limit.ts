import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { logFailure } from "@/lib/log";
import { processState } from "@/lib/process-state";

/**
 * Request budgets (per API key, per user for session requests, and the sign-in limits): a fixed window per key,
 * counted in Postgres so every web process draws on the same budget. Each request costs one statement: an upsert
 * that starts a new window when the last one has ended and otherwise adds one to its count (waited for only near the
 * limit, see UNAWAITED_SHARE). Keys are stored hashed:
 * the table never holds the email addresses and client addresses the sign-in limits count by.
 */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * While a key's last known count (plus its requests still being counted) is below this share of its limit, a request
 * is let through at once and counted in the background: waiting for the upsert was a quarter of a bare authenticated
 * request's time. Each answer brings the window's count as every process has added to it. From this share on every
 * request waits for its count, after this process's counts still in flight: the limit holds but for other processes'
 * requests let through in the same moment, each of them below the share.
 */
const UNAWAITED_SHARE = 0.5;
/** Keys whose last count this process remembers; past this many it forgets them all (their next requests wait). */
const MAX_REMEMBERED = 10_000;

interface CountedWindow {
  count: number;
  window_start: string | Date;
}

interface KnownCount {
  windowStart: number;
  count: number;
  /** Counts of requests let through that have not come back yet. */
  inFlight: Set<Promise<unknown>>;
}

/** Per database handle (tests open several), the last count seen for each limiter's key. */
function lastCounts(database: Database): Map<string, KnownCount> {
  const all = processState("rate-limit-counts", () => new WeakMap<Database, Map<string, KnownCount>>());
  let counts = all.get(database);
  if (!counts) {
    counts = new Map();
    all.set(database, counts);
  }
  return counts;
}

/**
 * Remembers the newest count of a window (answers may come back out of order over a pool's connections), in the
 * key's one record: requests let through before a new window began are still counted down in it.
 */
function learn(counts: Map<string, KnownCount>, slot: string, row: CountedWindow | undefined): void {
  if (!row) return;
  const windowStart = new Date(row.window_start).getTime();
  const known = counts.get(slot);
  if (!known) {
    if (counts.size >= MAX_REMEMBERED) counts.clear();
    counts.set(slot, { windowStart, count: row.count, inFlight: new Set() });
  } else if (windowStart > known.windowStart) {
    known.windowStart = windowStart;
    known.count = row.count;
  } else if (windowStart === known.windowStart) {
    known.count = Math.max(known.count, row.count);
  }
}

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
    const key = storedKey(id);
    const counts = lastCounts(database);
    const slot = `${this.name}:${key}`;
    const known = counts.get(slot);
    const limit = this.limit();
    if (
      known &&
      now < known.windowStart + this.windowMs &&
      known.count + known.inFlight.size + 1 <= limit * UNAWAITED_SHARE
    ) {
      // Far below the limit: the request is counted, but not kept waiting for the count.
      const counting = this.#count(database, key, now).then(
        (row) => learn(counts, slot, row),
        (error) => {
          counts.delete(slot);
          logFailure("could not count a request against its rate limit", error, "warn");
        },
      );
      known.inFlight.add(counting);
      void counting.finally(() => known.inFlight.delete(counting));
      return { allowed: true };
    }
    // This process's counts still on their way are added first: a count that overtook them would leave them out of
    // the window it decides on, and a loaded database let a fifth sign-in of four through that way.
    if (known?.inFlight.size) await Promise.all(known.inFlight);
    const row = await this.#count(database, key, now);
    learn(counts, slot, row);
    if (!row || row.count <= limit) return { allowed: true };
    const windowEnds = new Date(row.window_start).getTime() + this.windowMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now) / 1000)) };
  }

  /** Adds one request to `key`'s window (a new one when the last has ended) and returns the window. */
  async #count(database: Database, key: string, now: number): Promise<CountedWindow | undefined> {
    const startsNew = new Date(now).toISOString();
    const endedBefore = new Date(now - this.windowMs).toISOString();
    // Refused requests are counted too: the count only decides, and the window ends on time regardless.
    const [row] = await database.unbound.rows<CountedWindow>(sql`
      insert into rate_limit_windows (limiter, key, window_start, count)
      values (${this.name}, ${key}, ${startsNew}::timestamptz, 1)
      on conflict (limiter, key) do update set
        count = case when rate_limit_windows.window_start <= ${endedBefore}::timestamptz then 1
                     else rate_limit_windows.count + 1 end,
        window_start = case when rate_limit_windows.window_start <= ${endedBefore}::timestamptz
                            then excluded.window_start else rate_limit_windows.window_start end
      returning count, window_start`);
    this.#pruneNowAndThen(database);
    return row;
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

/**
 * Waits for this process's counts of `ids` still on their way, in every limiter: an account's deletion waits for them
 * (its own request's count among them, which is not awaited far below the limit) so none writes its row after.
 */
export async function countsSettled(database: Database, ids: readonly string[]): Promise<void> {
  const keys = new Set(ids.map(storedKey));
  const pending = [...lastCounts(database)].flatMap(([slot, known]) =>
    keys.has(slot.slice(slot.indexOf(":") + 1)) ? [...known.inFlight] : [],
  );
  await Promise.allSettled(pending);
}

/** The key as stored: a SHA-256 of what is counted. */
export function storedKey(id: string): string {
  return createHash("sha256").update(id).digest("base64url");
}

/** API_RATE_LIMIT_PER_MINUTE, per key and per user for session requests. */
const perKeyOrUser = () => config().API_RATE_LIMIT_PER_MINUTE;

export const apiKeyLimiter = new SharedWindowLimiter("api-key", perKeyOrUser);
/** Session-authenticated API requests, per user: a browser session gets the same budget as a key. */
export const sessionLimiter = new SharedWindowLimiter("session", perKeyOrUser);

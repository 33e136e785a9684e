import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { logFailure } from "@/lib/log";
import { intArray, textArray } from "@/lib/memory/core";
import { processState } from "@/lib/process-state";

/**
 * Request budgets (per API key, per user for session requests, and the sign-in limits): a fixed window per key,
 * counted in Postgres so every web process draws on the same budget. A count is an upsert that starts a new window
 * when the last one has ended and otherwise adds to its count. Near the limit each request waits for its own (see
 * UNAWAITED_SHARE); far below it, the requests of one turn of the event loop are counted together, in one statement
 * (PendingCounts). Keys are stored hashed: the table never holds the email addresses and client addresses the sign-in
 * limits count by.
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
/**
 * Keys whose last count this process remembers; past this many it forgets all of them with no count on its way (their
 * next requests wait).
 */
export const MAX_REMEMBERED = 10_000;

interface CountedWindow {
  key: string;
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
    if (counts.size >= MAX_REMEMBERED) forgetSettled(counts);
    counts.set(slot, { windowStart, count: row.count, inFlight: new Set() });
  } else if (windowStart > known.windowStart) {
    known.windowStart = windowStart;
    known.count = row.count;
  } else if (windowStart === known.windowStart) {
    known.count = Math.max(known.count, row.count);
  }
}

/**
 * Forgets the keys with no count on its way. A record with counts on their way stays: it holds them for an account's
 * deletion (countsSettled) and for the key's next request, which wait for them.
 */
function forgetSettled(counts: Map<string, KnownCount>): void {
  for (const [slot, known] of counts) if (known.inFlight.size === 0) counts.delete(slot);
}

/** A key's requests in one count, and when the first of them came (a window that has ended starts anew then). */
interface Requests {
  now: number;
  requests: number;
}

/**
 * Requests let through far below the limit, counted together per limiter and database: those of one turn of the event
 * loop go in one statement, by key, once the turn has read them. On PGlite a statement runs as soon as it is sent, so
 * each request had sent an upsert of its own: 0.57 ms of PGlite's thread a single POST (docs/performance.md).
 * Statements of successive turns do not wait for each other.
 */
class PendingCounts {
  #next = new Map<string, Requests>();
  #nextCounted: Deferred<CountedWindow[]> | undefined;
  readonly #sent = new Set<Promise<unknown>>();

  constructor(private readonly count: (requests: ReadonlyMap<string, Requests>) => Promise<CountedWindow[]>) {}

  /** Counts one request of `key`; resolves to its window as counted, with the others of its statement. */
  add(key: string, now: number): Promise<CountedWindow | undefined> {
    const known = this.#next.get(key);
    if (known) known.requests += 1;
    else this.#next.set(key, { now, requests: 1 });
    if (!this.#nextCounted) {
      this.#nextCounted = deferred();
      setImmediate(() => this.#send());
    }
    return this.#nextCounted.promise.then((rows) => rows.find((row) => row.key === key));
  }

  /** Sends what waits for the turn's end now, and settles once every count sent has come back. */
  async settle(): Promise<void> {
    if (this.#nextCounted) this.#send();
    await Promise.allSettled([...this.#sent]);
  }

  #send(): void {
    if (!this.#nextCounted) return;
    const requests = this.#next;
    const counted = this.#nextCounted;
    this.#next = new Map();
    this.#nextCounted = undefined;
    const sent = this.count(requests).then(counted.resolve, counted.reject);
    this.#sent.add(sent);
    void sent.finally(() => this.#sent.delete(sent));
  }
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class SharedWindowLimiter {
  readonly #lastPruneAt = new WeakMap<Database, number>();
  readonly #pending = new WeakMap<Database, PendingCounts>();

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
      const counting = this.#pendingCounts(database)
        .add(key, now)
        .then(
          (row) => learn(counts, slot, row),
          (error) => {
            // The window is forgotten, so the key's next request waits for its own count; the record stays, since it
            // holds the counts of later statements still on their way (countsSettled and that request wait for them).
            known.windowStart = Number.NEGATIVE_INFINITY;
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
    const [row] = await this.#count(database, new Map([[key, { now, requests: 1 }]]));
    learn(counts, slot, row);
    if (!row || row.count <= limit) return { allowed: true };
    const windowEnds = new Date(row.window_start).getTime() + this.windowMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now) / 1000)) };
  }

  /** The counts of requests let through on `database` that wait for their turn of the event loop to end. */
  #pendingCounts(database: Database): PendingCounts {
    let pending = this.#pending.get(database);
    if (!pending) {
      const counts = new PendingCounts((requests) => this.#count(database, requests));
      database.beforeClose(() => counts.settle());
      this.#pending.set(database, counts);
      pending = counts;
    }
    return pending;
  }

  /**
   * Adds each key's requests to its window (a new one, counting them alone, when the last has ended) and returns the
   * windows. The rows go in the order of their keys (as the table's key sorts them), so two processes counting the same
   * keys at once, or an account's deletion, never wait on each other crosswise.
   */
  async #count(database: Database, requests: ReadonlyMap<string, Requests>): Promise<CountedWindow[]> {
    const keys = [...requests.keys()];
    const windowMs = this.windowMs;
    // Refused requests are counted too: the count only decides, and the window ends on time regardless.
    const rows = await database.unbound.rows<CountedWindow>(sql`
      insert into rate_limit_windows (limiter, key, window_start, count)
      select ${this.name}, counted.key, counted.starts, counted.requests
      from unnest(${textArray(keys)},
                  ${textArray(keys.map((key) => new Date(requests.get(key)!.now).toISOString()))}::timestamptz[],
                  ${intArray(keys.map((key) => requests.get(key)!.requests))})
        as counted(key, starts, requests)
      order by counted.key
      on conflict (limiter, key) do update set
        count = case when rate_limit_windows.window_start <= excluded.window_start - ${windowMs} * interval '1 ms'
                     then excluded.count else rate_limit_windows.count + excluded.count end,
        window_start = case when rate_limit_windows.window_start <= excluded.window_start - ${windowMs} * interval '1 ms'
                            then excluded.window_start else rate_limit_windows.window_start end
      returning key, count, window_start`);
    this.#pruneNowAndThen(database);
    return rows;
  }

  /** Drops this limiter's ended windows once a window per process (by the wall clock), off the request's path. */
  #pruneNowAndThen(database: Database): void {
    const now = Date.now();
    if (now - (this.#lastPruneAt.get(database) ?? 0) < this.windowMs) return;
    this.#lastPruneAt.set(database, now);
    const endedBefore = new Date(now - this.windowMs).toISOString();
    // Rows a count holds are left for the next prune: a count locks its keys in their order, and a prune taking
    // them in the table's order could deadlock with it.
    database.unbound
      .rows(sql`
        delete from rate_limit_windows where (limiter, key) in (
          select limiter, key from rate_limit_windows
          where limiter = ${this.name} and window_start <= ${endedBefore}::timestamptz
          for update skip locked)`)
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

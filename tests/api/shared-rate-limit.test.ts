import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { countsSettled, MAX_REMEMBERED, SharedWindowLimiter, storedKey } from "@/lib/api/rate-limit";
import { type Database, openPglite, openPostgres } from "@/lib/db/client";
import { describeEachDatabase, openFreshPostgres, openMigratedPglite } from "../support/databases";

let unique = 0;
const nextKey = () => `key-${Date.now()}-${++unique}`;
const START = Date.parse("2030-01-01T00:00:00Z");

describeEachDatabase("shared rate limits", (use) => {
  it("counts a fixed window per key, refuses past the limit with the seconds left, and starts anew", async () => {
    const limiter = new SharedWindowLimiter("test-window", () => 2, 10_000);
    const key = nextKey();
    expect(await limiter.take(use(), key, START)).toEqual({ allowed: true });
    expect(await limiter.take(use(), key, START + 1_000)).toEqual({ allowed: true });
    expect(await limiter.take(use(), key, START + 2_500)).toEqual({ allowed: false, retryAfterSeconds: 8 });
    expect(await limiter.take(use(), nextKey(), START + 2_500)).toEqual({ allowed: true });
    expect(await limiter.take(use(), key, START + 10_000)).toEqual({ allowed: true });
  });

  it("stores keys hashed, never the email or address counted", async () => {
    const email = `someone-${nextKey()}@example.com`;
    await new SharedWindowLimiter("test-hashed", () => 5).take(use(), email, START);
    const rows = await use().unbound.rows<{ key: string }>(
      sql`select key from rate_limit_windows where limiter = 'test-hashed'`,
    );
    expect(rows).toEqual([{ key: storedKey(email) }]);
    expect(JSON.stringify(rows)).not.toContain("someone");
  });

  it("keeps the windows out of the write-ahead log: a request's count does not wait for a disk flush", async () => {
    const [table] = await use().unbound.rows<{ persistence: string }>(
      sql`select relpersistence as persistence from pg_class where oid = 'rate_limit_windows'::regclass`,
    );
    expect(table?.persistence).toBe("u");
  });

  it("keeps limiters apart: the same key under two names has two budgets", async () => {
    const one = new SharedWindowLimiter("test-one", () => 1);
    const two = new SharedWindowLimiter("test-two", () => 1);
    const key = nextKey();
    expect((await one.take(use(), key, START)).allowed).toBe(true);
    expect((await one.take(use(), key, START)).allowed).toBe(false);
    expect((await two.take(use(), key, START)).allowed).toBe(true);
  });

  it("counts the requests let through at once far below the limit together, in one statement, every one", async () => {
    const limiter = new SharedWindowLimiter("test-together", () => 1_000);
    const key = nextKey();
    const other = nextKey();
    await limiter.take(use(), key, START);
    await limiter.take(use(), other, START);
    const rows = vi.spyOn(use().unbound, "rows");
    try {
      const decisions = await Promise.all(
        Array.from({ length: 30 }, (_, i) => limiter.take(use(), i % 3 === 0 && i > 0 ? other : key, START + i)),
      );
      expect(decisions.every((decision) => decision.allowed)).toBe(true);
      await countsSettled(use(), [key, other]);
      expect(rows.mock.calls.length).toBe(1);
    } finally {
      rows.mockRestore();
    }
    const counted = await use().unbound.rows<{ key: string; count: number }>(
      sql`select key, count from rate_limit_windows where limiter = 'test-together' order by count`,
    );
    expect(counted).toEqual([
      { key: storedKey(other), count: 10 },
      { key: storedKey(key), count: 22 },
    ]);
  });

  it("prunes ended windows of its limiter", async () => {
    const ended = new Date(Date.now() - 5 * 60_000).toISOString();
    await use().unbound.rows(
      sql`insert into rate_limit_windows (limiter, key, window_start, count) values ('test-prune', ${storedKey("old")}, ${ended}::timestamptz, 3), ('test-other', ${storedKey("old")}, ${ended}::timestamptz, 3)`,
    );
    await new SharedWindowLimiter("test-prune", () => 5).take(use(), "fresh");
    const left = async () =>
      use().unbound.rows<{ limiter: string; key: string }>(
        sql`select limiter, key from rate_limit_windows where limiter in ('test-prune', 'test-other') order by limiter, key`,
      );
    // The prune runs off the request's path: poll for it (a loaded machine may take seconds to get to it).
    await expect.poll(left, { timeout: 20_000, interval: 50 }).toEqual([
      { limiter: "test-other", key: storedKey("old") },
      { limiter: "test-prune", key: storedKey("fresh") },
    ]);
  });
});

describe("waiting for the count", () => {
  /** A database whose counts come back only when the test says: what a request waits for is then visible. */
  function heldDatabase() {
    type Answer = { key: string; count: number; window_start: string };
    const held: Array<(answer?: Answer | Error) => void> = [];
    let count = 0;
    const database = {
      beforeClose: () => {},
      unbound: {
        rows: (query: { queryChunks?: unknown[] }) => {
          if (!JSON.stringify(query.queryChunks ?? []).includes("insert into rate_limit_windows"))
            return Promise.resolve([]);
          count += 1;
          const answer = { key: storedKey("key"), count, window_start: new Date(START).toISOString() };
          return new Promise<unknown[]>((resolve, reject) =>
            held.push((given) => (given instanceof Error ? reject(given) : resolve([given ?? answer]))),
          );
        },
      },
    } as unknown as Database;
    return { database, held, counted: () => count };
  }
  const settled = async <T>(promise: Promise<T>) =>
    Promise.race([promise, new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 50))]);

  it("lets a request far below the limit through at once and counts it all the same", async () => {
    const { database, held, counted } = heldDatabase();
    const limiter = new SharedWindowLimiter("test-unawaited", () => 100);
    const first = limiter.take(database, "key", START);
    // The first request of a window waits: nothing is known of the key yet.
    expect(await settled(first)).toBe("waiting");
    held.shift()?.();
    expect(await first).toEqual({ allowed: true });
    expect(await settled(limiter.take(database, "key", START + 1_000))).toEqual({ allowed: true });
    await vi.waitFor(() => expect(counted()).toBe(2));
  });

  it("waits for the count from half the limit on, after the counts still in flight, so the limit holds", async () => {
    const { database, held, counted } = heldDatabase();
    const release = () => {
      for (const answer of held.splice(0)) answer();
    };
    const limiter = new SharedWindowLimiter("test-awaited", () => 4);
    const first = limiter.take(database, "key", START);
    release();
    expect((await first).allowed).toBe(true);
    // One of four counted: the second goes through at once.
    expect(await settled(limiter.take(database, "key", START))).toEqual({ allowed: true });
    // Two (one still being counted) of four: the third waits for its count, which it sends only once the second's
    // has come back (sent first, it could be decided on a window that leaves the second out).
    const third = limiter.take(database, "key", START + 1_000);
    expect(await settled(third)).toBe("waiting");
    expect(counted()).toBe(2);
    release();
    await vi.waitFor(() => expect(counted()).toBe(3), { timeout: 15_000 });
    expect(await settled(third)).toBe("waiting");
    release();
    expect(await third).toEqual({ allowed: true });
  });

  it("sends the counts of a later turn while an earlier one is held up", async () => {
    const { database, held, counted } = heldDatabase();
    const limiter = new SharedWindowLimiter("test-held-up", () => 100);
    const first = limiter.take(database, "key", START);
    held.shift()?.();
    await first;
    expect(await settled(limiter.take(database, "key", START + 1_000))).toEqual({ allowed: true });
    await vi.waitFor(() => expect(counted()).toBe(2));
    expect(await settled(limiter.take(database, "key", START + 2_000))).toEqual({ allowed: true });
    await vi.waitFor(() => expect(counted()).toBe(3));
  });

  it("forgets the window when a count fails, and still waits for the counts sent after it", async () => {
    const { database, held } = heldDatabase();
    const limiter = new SharedWindowLimiter("test-failed-count", () => 100);
    const first = limiter.take(database, "key", START);
    held.shift()?.();
    await first;
    expect(await settled(limiter.take(database, "key", START + 1_000))).toEqual({ allowed: true });
    await vi.waitFor(() => expect(held).toHaveLength(1));
    expect(await settled(limiter.take(database, "key", START + 1_500))).toEqual({ allowed: true });
    await vi.waitFor(() => expect(held).toHaveLength(2));
    held.shift()?.(new Error("the connection was lost"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The later count is still on its way: an account's deletion waits for it, and so does the key's next request,
    // which then waits for its own count too.
    const deletion = countsSettled(database, ["key"]);
    expect(await settled(deletion)).toBe("waiting");
    const next = limiter.take(database, "key", START + 2_000);
    expect(await settled(next)).toBe("waiting");
    held.shift()?.();
    await deletion;
    await vi.waitFor(() => expect(held).toHaveLength(1));
    expect(await settled(next)).toBe("waiting");
    held.shift()?.();
    expect(await next).toEqual({ allowed: true });
  });

  it("keeps the record of a key with a count on its way when it forgets the others past its limit of keys", async () => {
    // Every count comes back at once but the second of "key", held until the end.
    let heldCount = () => {};
    let counts = 0;
    const database = {
      beforeClose: () => {},
      unbound: {
        rows: (query: { queryChunks?: unknown[] }) => {
          const text = JSON.stringify(query.queryChunks ?? []);
          if (!text.includes("insert into rate_limit_windows")) return Promise.resolve([]);
          const [, keys = ""] = /"\{(.*?)\}"/.exec(text) ?? [];
          const answer = keys
            .split(",")
            .map((key) => ({ key: key.replace(/\\?"/g, ""), count: 1, window_start: new Date(START).toISOString() }));
          counts += 1;
          if (counts === 2) return new Promise((resolve) => (heldCount = () => resolve(answer)));
          return Promise.resolve(answer);
        },
      },
    } as unknown as Database;
    const limiter = new SharedWindowLimiter("test-forgetting", () => 100);
    await limiter.take(database, "key", START);
    expect(await settled(limiter.take(database, "key", START + 1_000))).toEqual({ allowed: true });
    await vi.waitFor(() => expect(counts).toBe(2));
    for (let other = 0; other <= MAX_REMEMBERED; other++) await limiter.take(database, `other-${other}`, START);
    // The others are forgotten: the first one's next request sends its own count at once, not at the turn's end.
    const sent = counts;
    const forgotten = limiter.take(database, "other-0", START + 1_000);
    expect(counts).toBe(sent + 1);
    await forgotten;
    // "key" is remembered with its count on its way, which its account's deletion awaits.
    const deletion = countsSettled(database, ["key"]);
    expect(await settled(deletion)).toBe("waiting");
    heldCount();
    await deletion;
  });

  it("counts requests let through before a new window began down in the new window's record", async () => {
    const { database, held } = heldDatabase();
    const limiter = new SharedWindowLimiter("test-next-window", () => 4);
    const first = limiter.take(database, "key", START);
    held.shift()?.();
    expect((await first).allowed).toBe(true);
    expect(await settled(limiter.take(database, "key", START + 1_000))).toEqual({ allowed: true });
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // Its count comes back from the next window, where it was the first.
    held.shift()?.({ key: storedKey("key"), count: 1, window_start: new Date(START + 60_000).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 10));
    // One of four counted and none in flight: let through at once.
    expect(await settled(limiter.take(database, "key", START + 61_000))).toEqual({ allowed: true });
  });
});

describe("shared rate limits across handles on one database", () => {
  const opened: Database[] = [];
  const temporary: string[] = [];
  afterAll(async () => {
    for (const database of opened.reverse()) await database.close();
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "two PostgreSQL handles, as two web processes, draw on one budget, also when racing",
    async () => {
      const first = await openFreshPostgres(process.env.TEST_DATABASE_URL!);
      opened.push(first);
      if (first.connection.kind !== "postgres") throw new Error("expected PostgreSQL");
      const second = await openPostgres(first.connection.url, { max: 4 });
      opened.push(second);
      // Each process has its own limiter object, as each web process would.
      const inFirst = new SharedWindowLimiter("test-shared", () => 3);
      const inSecond = new SharedWindowLimiter("test-shared", () => 3);
      const key = nextKey();
      expect((await inFirst.take(first, key, START)).allowed).toBe(true);
      expect((await inSecond.take(second, key, START)).allowed).toBe(true);
      expect((await inFirst.take(first, key, START)).allowed).toBe(true);
      expect(await inSecond.take(second, key, START + 30_000)).toEqual({ allowed: false, retryAfterSeconds: 30 });
      expect((await inFirst.take(first, key, START + 30_000)).allowed).toBe(false);

      const racing = nextKey();
      const decisions = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 2 === 0 ? inFirst.take(first, racing, START) : inSecond.take(second, racing, START),
        ),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3);
    },
  );

  /** A migrated PGlite directory, and a way to close it and open it again as a second handle. */
  async function pgliteDirectory() {
    const dir = mkdtempSync(path.join(tmpdir(), "ml-rate-"));
    temporary.push(dir);
    const dataDir = path.join(dir, "pglite");
    const first = await openMigratedPglite(dataDir);
    return {
      first,
      async reopen() {
        await first.close();
        const second = await openPglite(dataDir);
        opened.push(second);
        return second;
      },
    };
  }

  it("writes the counts still waiting for their turn's end before the database closes", async () => {
    const { first, reopen } = await pgliteDirectory();
    const limiter = new SharedWindowLimiter("test-closing", () => 100);
    const key = nextKey();
    await limiter.take(first, key, START);
    expect(await limiter.take(first, key, START)).toEqual({ allowed: true });
    const second = await reopen();
    const rows = await second.unbound.rows<{ count: number }>(
      sql`select count from rate_limit_windows where limiter = 'test-closing'`,
    );
    expect(rows).toEqual([{ count: 2 }]);
  });

  it("a PGlite directory keeps its counts across handles (one at a time: PGlite is single-process)", async () => {
    const { first, reopen } = await pgliteDirectory();
    const limiter = new SharedWindowLimiter("test-file", () => 2);
    const key = nextKey();
    expect((await limiter.take(first, key, START)).allowed).toBe(true);
    expect((await limiter.take(first, key, START)).allowed).toBe(true);
    const second = await reopen();
    expect(await new SharedWindowLimiter("test-file", () => 2).take(second, key, START + 1_000)).toEqual({
      allowed: false,
      retryAfterSeconds: 59,
    });
  });
});

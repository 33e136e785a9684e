import { describe, expect, it } from "vitest";
import type { Call } from "@/bench/http-client";
import { probeSentence, writeToSearchable } from "@/bench/suites/searchable";
import { type Clock, parseProcStat, pollUntilFound, waitUntilIdle } from "@/bench/waiting";

/** Time moves only when the code under test sleeps or a fake search says it took some. */
function fakeClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

describe("pollUntilFound", () => {
  it("asks at once, then every interval after an answer, and times the answer that found it", async () => {
    const clock = fakeClock();
    const asked: number[] = [];
    const found = await pollUntilFound(
      async () => {
        asked.push(clock.now());
        clock.advance(5); // each search takes 5 ms
        return asked.length;
      },
      (answer) => answer === 3,
      { intervalMs: 100, timeoutMs: 1_000, clock },
    );
    expect(asked).toEqual([0, 105, 210]);
    expect(found).toEqual({ ms: 215, polls: 3 });
  });

  it("gives up without a time when the next poll would start past the timeout", async () => {
    const clock = fakeClock();
    const found = await pollUntilFound(
      async () => false,
      (answer) => answer,
      { intervalMs: 100, timeoutMs: 450, clock },
    );
    expect(found).toEqual({ ms: undefined, polls: 5 });
  });
});

describe("waitUntilIdle", () => {
  it("waits for a whole window under the share of a core and says when that window began", async () => {
    const clock = fakeClock();
    // CPU ms used per 1,000 ms window: busy, busy, then quiet.
    const perWindow = [900, 700, 20];
    let used = 0;
    const idle = await waitUntilIdle(
      () => {
        const window = Math.round(clock.now() / 1_000) - 1;
        if (window >= 0 && window < perWindow.length) used += perWindow[window] as number;
        return used;
      },
      { windowMs: 1_000, maxShare: 0.1, timeoutMs: 60_000, clock },
    );
    expect(idle).toEqual({ ms: 2_000, share: 0.02 });
  });

  it("says it never went quiet when the timeout passes first", async () => {
    const clock = fakeClock();
    let used = 0;
    const idle = await waitUntilIdle(
      () => {
        used += 500;
        return used;
      },
      { windowMs: 1_000, maxShare: 0.1, timeoutMs: 4_000, clock },
    );
    expect(idle).toEqual({ ms: undefined, share: 0.5 });
  });
});

describe("parseProcStat", () => {
  it("reads the process group and user + system ticks past a command name with spaces and parentheses", () => {
    const line =
      "4242 (next-server (v1) x) S 4100 4200 4300 0 -1 4194560 12345 0 0 0 731 129 0 0 20 0 23 0 987654 1 2 3\n";
    expect(parseProcStat(line)).toEqual({ pgrp: 4200, ticks: 860 });
    expect(parseProcStat("garbage")).toBeUndefined();
  });
});

describe("write to searchable", () => {
  it("asks both modes for each write's memory until each returns it, the vector search later", async () => {
    const clock = fakeClock();
    const writes: string[] = [];
    const write: Call = async (_method, _route, body) => {
      const { content } = (body as { content: { content: string } }).content;
      writes.push(content);
      return { status: 201, body: { memory: { id: `m${writes.length}` } } };
    };
    // Lexical finds the newest write at once; the vector search finds it from its third poll on.
    const polls: Record<string, number> = {};
    const search =
      (mode: string): Call =>
      async (_method, _route, body) => {
        const request = body as { query: string; mode: string };
        expect(request.mode).toBe(mode);
        expect(request.query).toBe(writes.at(-1));
        polls[mode] = (polls[mode] ?? 0) + 1;
        const visible = mode === "lexical" || (polls[mode] as number) % 3 === 0;
        return { status: 200, body: { results: visible ? [{ memory: { id: `m${writes.length}` } }] : [] } };
      };
    const figure = await writeToSearchable(
      { write, lexical: search("lexical"), vector: search("vector") },
      { writes: 2, intervalMs: 100, timeoutMs: 10_000, clock },
    );
    expect(writes).toEqual([probeSentence(0), probeSentence(1)]);
    expect(figure.lexical).toMatchObject({ found: 2, meanPolls: 1 });
    expect(figure.vector).toMatchObject({ found: 2, meanPolls: 3 });
    expect(figure.vector?.ms.p50).toBeGreaterThan(figure.lexical.ms.p50);
  });

  it("asks no vector search where the server runs none, and a failed search fails the run", async () => {
    const write: Call = async () => ({ status: 201, body: { memory: { id: "m1" } } });
    const lexical: Call = async () => ({ status: 200, body: { results: [{ memory: { id: "m1" } }] } });
    const figure = await writeToSearchable({ write, lexical }, { writes: 1, intervalMs: 100, timeoutMs: 1_000 });
    expect(figure.vector).toBeUndefined();
    expect(figure.lexical.found).toBe(1);
    const refused: Call = async () => ({ status: 422, body: {} });
    await expect(
      writeToSearchable({ write, lexical, vector: refused }, { writes: 1, intervalMs: 100, timeoutMs: 1_000 }),
    ).rejects.toThrow(/vector search answered 422/);
  });

  it("writes a different sentence each time", () => {
    const sentences = Array.from({ length: 20 }, (_, index) => probeSentence(index));
    expect(new Set(sentences).size).toBe(20);
  });
});

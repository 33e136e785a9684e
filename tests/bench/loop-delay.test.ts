import { describe, expect, it, vi } from "vitest";
import { duringLoad, embeddingBacklogOf, loopDelayOf } from "@/bench/suites/loop-delay";

/** A scrape as GET /api/metrics serves it, with the event-loop gauges in seconds. */
const scrape = (p99: number, max: number) =>
  [
    "# HELP nodejs_eventloop_delay_p99 99th percentile of event-loop delay over the current window",
    "# TYPE nodejs_eventloop_delay_p99 gauge",
    `nodejs_eventloop_delay_p99 ${p99}`,
    "# HELP nodejs_eventloop_delay_max Longest event-loop delay over the current window",
    "# TYPE nodejs_eventloop_delay_max gauge",
    `nodejs_eventloop_delay_max ${max}`,
    "",
  ].join("\n");

describe("event-loop delay under a load", () => {
  it("reads the gauges of a scrape, and nothing from one without them", () => {
    expect(loopDelayOf(scrape(0.012, 0.3))).toEqual({ p99: 0.012, max: 0.3 });
    expect(loopDelayOf("# TYPE other gauge\nother 1\n")).toBeNull();
  });

  it("reads the embedding backlog of a scrape, and nothing from one without it", () => {
    const backlog = "# TYPE memory_ledger_embedding_backlog gauge\nmemory_ledger_embedding_backlog 37\n";
    expect(embeddingBacklogOf(scrape(0.01, 0.02) + backlog)).toBe(37);
    expect(embeddingBacklogOf(scrape(0.01, 0.02))).toBeNull();
  });

  it("scrapes while the load runs and once after it, keeping the worst of each gauge in ms", async () => {
    vi.useFakeTimers();
    try {
      const readings = [scrape(0.01, 0.05), scrape(0.04, 0.02), scrape(0.02, 0.2)];
      const scraper = vi.fn(async () => readings.shift() ?? null);
      const measuring = duringLoad(scraper, () => new Promise<string>((resolve) => setTimeout(resolve, 4_500, "done")));
      await vi.advanceTimersByTimeAsync(4_500);
      const { value, loopDelay } = await measuring;
      expect(value).toBe("done");
      expect(scraper).toHaveBeenCalledTimes(3);
      expect(loopDelay?.scrapes).toBe(3);
      expect(loopDelay?.p99Ms).toBeCloseTo(40);
      expect(loopDelay?.maxMs).toBeCloseTo(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says nothing when no scrape answered", async () => {
    expect(
      (
        await duringLoad(
          async () => null,
          async () => 1,
        )
      ).loopDelay,
    ).toBeNull();
  });
});

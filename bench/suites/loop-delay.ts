import parsePrometheusTextFormat from "parse-prometheus-text-format";

/** The server's event-loop delay over a load, as its own metrics report it (GET /api/metrics, docs/observability.md). */
export interface LoopDelay {
  /** The highest 99th percentile any scrape during the load reported, in ms. */
  p99Ms: number;
  /** The longest single delay any scrape reported, in ms. */
  maxMs: number;
  scrapes: number;
}

/**
 * Scrapes this often while a load runs. The bench's servers reset their gauges' window as often
 * (METRICS_LOOP_WINDOW_SECONDS), so each reading covers at most the last two seconds: the first one of a load may
 * reach back two seconds before it, no more.
 */
export const LOOP_DELAY_SCRAPE_SECONDS = 2;
const SCRAPE_EVERY_MS = LOOP_DELAY_SCRAPE_SECONDS * 1_000;

/** Runs `load` while scraping the server's metrics; null when no scrape answered (an older server, no token). */
export async function duringLoad<T>(
  scrape: () => Promise<string | null>,
  load: () => Promise<T>,
): Promise<{ value: T; loopDelay: LoopDelay | null }> {
  const readings: Array<{ p99: number; max: number }> = [];
  const take = async () => {
    const text = await scrape().catch(() => null);
    const reading = text === null ? null : loopDelayOf(text);
    if (reading) readings.push(reading);
  };
  let running = true;
  // The wait between scrapes ends early when the load does.
  let wake = () => {};
  let timer: NodeJS.Timeout | undefined;
  const pause = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, SCRAPE_EVERY_MS);
    });
  const sampler = (async () => {
    while (running) {
      await pause();
      if (running) await take();
    }
  })();
  const stop = async () => {
    running = false;
    clearTimeout(timer);
    wake();
    await sampler;
  };
  try {
    const value = await load();
    await stop();
    await take();
    if (readings.length === 0) return { value, loopDelay: null };
    return {
      value,
      loopDelay: {
        p99Ms: Math.max(...readings.map((reading) => reading.p99)) * 1_000,
        maxMs: Math.max(...readings.map((reading) => reading.max)) * 1_000,
        scrapes: readings.length,
      },
    };
  } finally {
    await stop();
  }
}

/** The event-loop gauges (seconds) of one Prometheus scrape, or null when it has none. */
export function loopDelayOf(text: string): { p99: number; max: number } | null {
  const families = parsePrometheusTextFormat(text);
  const p99 = gaugeOf(families, "nodejs_eventloop_delay_p99");
  const max = gaugeOf(families, "nodejs_eventloop_delay_max");
  return p99 === null || max === null ? null : { p99, max };
}

/** The server's embedding backlog (memories still without a vector, across users) of one scrape, or null without it. */
export function embeddingBacklogOf(text: string): number | null {
  return gaugeOf(parsePrometheusTextFormat(text), "memory_ledger_embedding_backlog");
}

function gaugeOf(families: ReturnType<typeof parsePrometheusTextFormat>, name: string): number | null {
  const value = Number(families.find((family) => family.name === name)?.metrics[0]?.value);
  return Number.isFinite(value) ? value : null;
}

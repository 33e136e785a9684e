import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type BenchResults, renderReport, table } from "./report";

/**
 * docs/performance.md is hand-written down to MARKER (what the bench measures and how to read it) and generated below
 * it from bench/results: the newest full run at the default scale, how its headline figures compare with the full run
 * before it, and the newest full run at 1M. Figures live here and in the result files only, never in prose or code
 * comments, so the page cannot disagree with what was measured.
 */
export const MARKER =
  "<!-- Generated below by `npm run docs:performance` from bench/results; edits are overwritten. -->";

export const RESULTS_DIRECTORY = path.join(process.cwd(), "bench", "results");
export const PAGE = path.join(process.cwd(), "docs", "performance.md");

interface ResultFile {
  file: string;
  results: BenchResults;
}

/** Finished runs of every suite (no `--only`) at `scale`, oldest first; file names sort by start time. */
export function fullRuns(directory: string, scale: string): ResultFile[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({
      file: name,
      results: JSON.parse(readFileSync(path.join(directory, name), "utf8")) as BenchResults,
    }))
    .filter(({ results }) => results.scale === scale && results.finishedAt && !results.command.includes("--only"))
    .sort((a, b) => a.results.startedAt.localeCompare(b.results.startedAt));
}

interface Headline {
  name: string;
  value: number;
  unit: string;
  better: "lower" | "higher";
}

/** The figures a change must not make worse: Memory Ledger's own, per database and bucket. */
export function headlines(results: BenchResults): Headline[] {
  const out: Headline[] = [];
  const ours = (store: string) => store.startsWith("Memory Ledger");
  for (const figure of results.search.filter((entry) => ours(entry.store))) {
    const where = `${figure.store} @ ${figure.memoriesPerUser.toLocaleString("en")}/user`;
    out.push({ name: `search p50, ${where}`, value: figure.latencyMs.p50, unit: "ms", better: "lower" });
    out.push({ name: `search p95, ${where}`, value: figure.latencyMs.p95, unit: "ms", better: "lower" });
    out.push({ name: `search recall@10, ${where}`, value: figure.recallAt10 * 100, unit: "%", better: "higher" });
  }
  for (const figure of results.ingest.filter((entry) => ours(entry.store))) {
    out.push({ name: `single ingest, ${figure.store}`, value: figure.singleRate, unit: "/s", better: "higher" });
    out.push({ name: `batch ingest, ${figure.store}`, value: figure.batchRate, unit: "/s", better: "higher" });
  }
  for (const figure of results.chat ?? []) {
    const name = `chat first token p50 with recall, ${figure.database}`;
    out.push({ name, value: figure.recallOn.ttftMs.p50, unit: "ms", better: "lower" });
  }
  for (const figure of (results.recall ?? []).filter((entry) => ours(entry.store))) {
    const ranking = figure.store.includes(`[${figure.ranking}]`) ? "" : ` ${figure.ranking}`;
    const name = `recall@10, ${figure.dataset}, ${figure.store}${ranking}`;
    out.push({ name, value: figure.recall.at10 * 100, unit: "%", better: "higher" });
  }
  for (const figure of results.http ?? []) {
    if ("skipped" in figure) continue;
    // A run before configurations had one setup, named by its database alone.
    const where = "configuration" in figure ? `${figure.database}, ${figure.configuration}` : figure.database;
    out.push({ name: `HTTP search p50, ${where}`, value: figure.search.p50, unit: "ms", better: "lower" });
    out.push({ name: `HTTP /me p50, ${where}`, value: figure.me.p50, unit: "ms", better: "lower" });
    out.push({ name: `HTTP batch ingest, ${where}`, value: figure.ingest.rate, unit: "/s", better: "higher" });
    if (!("configuration" in figure)) continue;
    out.push({ name: `HTTP single POST, ${where}`, value: figure.singlePost.rate, unit: "/s", better: "higher" });
    const { lexical, vector } = figure.searchable;
    out.push({ name: `HTTP lexical searchable p50, ${where}`, value: lexical.ms.p50, unit: "ms", better: "lower" });
    if (vector) {
      out.push({ name: `HTTP vector searchable p50, ${where}`, value: vector.ms.p50, unit: "ms", better: "lower" });
    }
    const burst = figure.singlePost.vectorsSearchableMs;
    if (typeof burst === "number") {
      const name = `HTTP single POSTs all vector-searchable, ${where}`;
      out.push({ name, value: burst / 1_000, unit: "s", better: "lower" });
    }
    const chat = figure.chat;
    // Answers were timed with each person's new connection in them until the opening was timed on its own: the two
    // are not one figure, so an answer on an open connection is not compared with a run before.
    if (chat?.openMs) {
      out.push({ name: `HTTP chat opening p95, ${where}`, value: chat.openMs.p95, unit: "ms", better: "lower" });
      out.push({
        name: `HTTP chat answer p95 on an open connection, ${where}`,
        value: chat.answerMs.p95,
        unit: "ms",
        better: "lower",
      });
    } else if (chat) {
      out.push({ name: `HTTP chat answer p95, ${where}`, value: chat.answerMs.p95, unit: "ms", better: "lower" });
    }
  }
  return out;
}

const number = (value: number) => (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0));

function comparison(latest: BenchResults, previous: BenchResults): string {
  const before = new Map(headlines(previous).map((figure) => [figure.name, figure.value]));
  const rows = headlines(latest).map((figure) => {
    const old = before.get(figure.name);
    if (old === undefined || !Number.isFinite(old) || !Number.isFinite(figure.value)) {
      return [figure.name, `${number(figure.value)} ${figure.unit}`, "–", ""];
    }
    // Recall moves in points (half a point is one question in two hundred); times and rates move with the machine's
    // hour, so only a change beyond 10% says anything.
    const points = figure.unit === "%";
    const change = points ? figure.value - old : old === 0 ? 0 : (figure.value - old) / old;
    const worse = figure.better === "lower" ? change > 0 : change < 0;
    const same = points ? Math.abs(change) < 0.5 : Math.abs(change) < 0.1;
    const verdict = same ? (points ? "same (within half a point)" : "same (within 10%)") : worse ? "worse" : "better";
    return [figure.name, `${number(figure.value)} ${figure.unit}`, `${number(old)} ${figure.unit}`, verdict];
  });
  return table(["figure", "this run", "previous run", "change"], rows);
}

/**
 * Which machines the two runs had, and how far the floor moved: plain pgvector arithmetic whose time is the machine's
 * alone, so a latency that moved with it is the machine's, not the code's.
 */
function machines(latest: BenchResults, previous: BenchResults): string {
  const floor = (results: BenchResults) =>
    results.search.find((figure) => figure.store.startsWith("Exact vector scan") && figure.memoriesPerUser === 10_000)
      ?.latencyMs.p50;
  const [now, before] = [floor(latest), floor(previous)];
  const moved =
    now !== undefined && before !== undefined
      ? ` The exact vector scan at 10,000 per user (the floor) took ${number(now)} ms p50 in this run and ${number(before)} ms in the one before.`
      : "";
  const same = latest.machine.cpuModel === previous.machine.cpuModel;
  return (
    (same
      ? `Both runs: ${latest.machine.cpus} cores (${latest.machine.cpuModel}).`
      : `This run: ${latest.machine.cpus} cores (${latest.machine.cpuModel}); the one before: ${previous.machine.cpus} cores (${previous.machine.cpuModel}) — another machine, so compare the ratios in the tables above rather than these times.`) +
    `${moved}\n`
  );
}

/** The generated part of the page. */
export function renderGenerated(directory: string): string {
  const runs = fullRuns(directory, "100k");
  const latest = runs.at(-1);
  if (!latest) throw new Error(`no finished full run at the default scale in ${directory}`);
  const out = [
    `## The latest default run\n`,
    `\`${latest.results.command}\`, started ${latest.results.startedAt}, \`bench/results/${latest.file}\`.\n`,
    renderReport(latest.results),
  ];
  const previous = runs.at(-2);
  if (previous) {
    out.push(
      `\n## Against the run before\n`,
      `Memory Ledger's own figures beside \`bench/results/${previous.file}\` (${previous.results.startedAt}). ` +
        "The machine is shared and its speed moves from hour to hour by more than 10%: a latency that is worse in one " +
        "pair of runs only is read again before it is believed.\n",
      machines(latest.results, previous.results),
      comparison(latest.results, previous.results),
    );
  }
  const million = fullRuns(directory, "1m").at(-1);
  if (million) {
    out.push(
      `\n## At 1M memories\n`,
      `\`${million.results.command}\`, started ${million.results.startedAt}, \`bench/results/${million.file}\`.\n`,
      renderReport(million.results),
    );
  }
  return `${out.join("\n")}\n`;
}

/** The page with its generated part replaced. */
export function renderPage(current: string, directory: string): string {
  const at = current.indexOf(MARKER);
  if (at < 0) throw new Error(`docs/performance.md has no marker line: ${MARKER}`);
  return `${current.slice(0, at + MARKER.length)}\n\n${renderGenerated(directory)}`;
}

export function writePage(page = PAGE, directory = RESULTS_DIRECTORY): void {
  writeFileSync(page, renderPage(readFileSync(page, "utf8"), directory));
}

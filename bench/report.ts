import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Machine } from "./machine";
import type { ChatFigure } from "./suites/chat";
import type { ExtractionFigure } from "./suites/extraction";
import type { HttpFigure, HttpRun, HttpSkipped, LegacyHttpFigure } from "./suites/http";
import type { HygieneFigure } from "./suites/hygiene";
import type { IngestFigure } from "./suites/ingest";
import type { ListFigure } from "./suites/list";
import type { LoopDelay } from "./suites/loop-delay";
import type { EmbeddingCostFigure, RecallFigure } from "./suites/recall";
import type { SearchFigure } from "./suites/search";
import type { SearchableFigure } from "./suites/searchable";

export interface LoadFigure {
  store: string;
  memories: number;
  seconds: number;
}

export interface BenchResults {
  startedAt: string;
  finishedAt?: string;
  command: string;
  scale: string;
  totalMemories: number;
  seed: number;
  machine: Machine;
  load: LoadFigure[];
  search: SearchFigure[];
  ingest: IngestFigure[];
  chat?: ChatFigure[];
  extraction?: ExtractionFigure;
  /** One figure per half and manager; a single figure in results recorded before the halves. */
  hygiene?: HygieneFigure[] | Omit<HygieneFigure, "half" | "manager">;
  list: ListFigure[];
  recall?: RecallFigure[];
  recallDatasets?: Array<{
    name: string;
    users: number;
    memories: number;
    questions: number;
    /** Conversational sets: questions nothing in the conversations answers (absent in runs before they were asked). */
    unanswerable?: number;
    /** Conversational sets: evidence turns with a word in common with their question besides the speakers' names. */
    evidenceSharingAWord?: number;
  }>;
  embeddingCost?: EmbeddingCostFigure[];
  /** Runs before configurations hold LegacyHttpFigure only. */
  http?: Array<HttpRun | LegacyHttpFigure>;
  /** EXPLAIN (ANALYZE, BUFFERS) of the statements whose shape is ours. */
  explain: Record<string, string>;
  notes: string[];
}

const ms = (value: number) => (Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value.toFixed(0)) : "–");
const ratio = (value: number, reference: number | undefined) =>
  reference && Number.isFinite(value) ? `${(value / reference).toFixed(1)}×` : "–";
const pct = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(0)}%` : "–");
/** Recall differences of a point or two are what the recall tables are for. */
const pct1 = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : "–");
const triple = (summary: { p50: number; p95: number; p99: number }) =>
  `${ms(summary.p50)} / ${ms(summary.p95)} / ${ms(summary.p99)}`;

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] as number)).join(" | ")} |`;
  return [line(header), `| ${widths.map((width) => "-".repeat(width)).join(" | ")} |`, ...rows.map(line)].join("\n");
}

/** Search latency is compared with Memory Ledger on the same PostgreSQL as PostgresStore when it ran, else PGlite. */
function referenceStore(results: BenchResults): string | undefined {
  const names = results.search.map((figure) => figure.store);
  return names.find((name) => name.includes("PostgreSQL")) ?? names.find((name) => name.startsWith("Memory Ledger"));
}

/** The report as Markdown tables, the same text docs/performance.md quotes. */
export function renderReport(results: BenchResults): string {
  const out: string[] = [];
  const { machine } = results;
  out.push(
    `Scale ${results.scale} (${results.totalMemories.toLocaleString("en")} memories), seed ${results.seed}; ` +
      `${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}; ${machine.databases.join(", ")}`,
  );
  if (results.search.length > 0) {
    const reference = referenceStore(results);
    out.push(`\nSearch (top 10; ratio = p50 ÷ ${reference} p50 in the same bucket)\n`);
    out.push(
      table(
        ["store", "memories/user", "p50 ms", "p95 ms", "p99 ms", "recall@10", "foreign rows", "p50 ratio"],
        results.search.map((figure) => {
          const base = results.search.find(
            (other) => other.store === reference && other.memoriesPerUser === figure.memoriesPerUser,
          );
          return [
            figure.store + (figure.truncated ? " (budget hit)" : ""),
            figure.memoriesPerUser.toLocaleString("en"),
            ms(figure.latencyMs.p50),
            ms(figure.latencyMs.p95),
            ms(figure.latencyMs.p99),
            pct(figure.recallAt10),
            `${figure.foreignRows} in ${figure.leakingQueries}/${figure.latencyMs.n} queries`,
            ratio(figure.latencyMs.p50, base?.latencyMs.p50),
          ];
        }),
      ),
    );
  }
  if (results.load.length > 0) {
    out.push("\nBulk load of the dataset (batches of 1,000)\n");
    out.push(
      table(
        ["store", "memories", "seconds", "memories/s"],
        results.load.map((figure) => [
          figure.store,
          figure.memories.toLocaleString("en"),
          figure.seconds.toFixed(1),
          (figure.memories / figure.seconds).toFixed(0),
        ]),
      ),
    );
  }
  if (results.ingest.length > 0) {
    const ledger = results.ingest.find((figure) => figure.store.startsWith("Memory Ledger"));
    out.push("\nIngest into the loaded stores (memories/s; ratio = rate ÷ first Memory Ledger rate)\n");
    out.push(
      table(
        ["store", "single/s", "single p50 ms", "single ratio", `batch of ${ledger?.batchSize ?? "–"}/s`, "batch ratio"],
        results.ingest.map((figure) => [
          figure.store,
          figure.singleRate.toFixed(0),
          ms(figure.singleLatencyMs.p50),
          ratio(figure.singleRate, ledger?.singleRate),
          figure.batchRate.toFixed(0),
          ratio(figure.batchRate, ledger?.batchRate),
        ]),
      ),
    );
  }
  if (results.chat?.length) {
    out.push(`\nChat time to first token, offline model, ${results.chat[0]?.transport}\n`);
    out.push(
      table(
        ["database", "recall", "memories", "TTFT p50 ms", "TTFT p95 ms", "turn p50 ms", "recall adds p50 / p95 ms"],
        results.chat.flatMap(({ database, recallOn, recallOff }) => [
          [
            database,
            "off (no memories)",
            "0",
            ms(recallOff.ttftMs.p50),
            ms(recallOff.ttftMs.p95),
            ms(recallOff.totalMs.p50),
            "",
          ],
          [
            database,
            "on",
            recallOn.memories.toLocaleString("en"),
            ms(recallOn.ttftMs.p50),
            ms(recallOn.ttftMs.p95),
            ms(recallOn.totalMs.p50),
            `${ms(recallOn.ttftMs.p50 - recallOff.ttftMs.p50)} / ${ms(recallOn.ttftMs.p95 - recallOff.ttftMs.p95)}`,
          ],
        ]),
      ),
    );
  }

  if (results.extraction) {
    const figure = results.extraction;
    out.push(`\nExtraction pass (runExtraction, ${figure.runs} runs, user with ${figure.memories} memories)\n`);
    out.push(
      table(
        ["", "p50 ms", "p95 ms"],
        [
          ["total", ms(figure.totalMs.p50), ms(figure.totalMs.p95)],
          ["model (offline)", ms(figure.modelMs.p50), ms(figure.modelMs.p95)],
          ["excluding model", ms(figure.excludingModelMs.p50), ms(figure.excludingModelMs.p95)],
        ],
      ),
    );
  }
  if (results.hygiene) out.push(renderHygiene(results.hygiene));
  if (results.list.length > 0) {
    out.push("\nConsole list page (listMemories, 50 per page, server time)\n");
    out.push(
      table(
        ["database", "memories/user", "first page p50 ms", "first p95 ms", "deep page p50 ms", "deep p95 ms"],
        results.list.map((figure) => [
          figure.database,
          figure.memories.toLocaleString("en"),
          ms(figure.firstPageMs.p50),
          ms(figure.firstPageMs.p95),
          ms(figure.deepPageMs.p50),
          ms(figure.deepPageMs.p95),
        ]),
      ),
    );
  }
  if (results.recall?.length) out.push(...renderRecall(results));
  if (results.http?.length) out.push(...renderHttp(results.http));
  if (results.notes.length > 0) out.push(`\n${results.notes.map((note) => `- ${note}`).join("\n")}`);
  return out.join("\n");
}

/** A run's figures over HTTP: configured runs (the default first), or the one table of a run before them. */
export function renderHttp(figures: ReadonlyArray<HttpRun | LegacyHttpFigure>): string[] {
  const runs = figures.filter(isConfigured);
  const legacy = figures.filter((figure): figure is LegacyHttpFigure => !isConfigured(figure));
  return [...(runs.length > 0 ? renderConfigured(runs) : []), ...(legacy.length > 0 ? renderLegacyHttp(legacy) : [])];
}

const isConfigured = (figure: HttpRun | LegacyHttpFigure): figure is HttpRun => "configuration" in figure;
const isSkipped = (figure: HttpRun): figure is HttpSkipped => "skipped" in figure;

/** The table runs before configurations were printed with, unchanged: docs/performance.md quotes one. */
function renderLegacyHttp(figures: readonly LegacyHttpFigure[]): string[] {
  const out: string[] = [];
  out.push("\nThe app over HTTP (next start, sequential keep-alive requests after a warm-up, one API key)\n");
  out.push(
    table(
      [
        "database",
        "memories",
        "ingest",
        "ingest memories/s",
        "ingest memories/s, clients at once",
        "GET /api/v1/me p50 / p95 / p99 ms",
        "POST /api/v1/memories/search p50 / p95 / p99 ms",
        "search recall@10",
        "startup s",
      ],
      figures.map((figure) => [
        figure.database,
        figure.memories.toLocaleString("en"),
        figure.ingest.endpoint === "batch"
          ? `${figure.ingest.memories.toLocaleString("en")} in batches of ${figure.ingest.batchSize}`
          : `${figure.ingest.memories.toLocaleString("en")} single POSTs (no batch route)`,
        figure.ingest.rate.toFixed(0),
        figure.ingest.parallel
          ? `${figure.ingest.parallel.rate.toFixed(0)} (${figure.ingest.parallel.clients} clients)`
          : "",
        triple(figure.me),
        triple(figure.search),
        pct(figure.searchRecallAt10),
        (figure.startupMs / 1_000).toFixed(1),
      ]),
    ),
  );
  return out;
}

/**
 * Per database and configuration, in the order they ran with each configuration's rows together (the default's
 * first); a ratio is of the same database's figure in the last configuration (vectors off), from the same run.
 */
function renderConfigured(runs: readonly HttpRun[]): string[] {
  const configurations = [...new Set(runs.map((run) => run.configuration))];
  const ordered = [...runs].sort(
    (a, b) => configurations.indexOf(a.configuration) - configurations.indexOf(b.configuration),
  );
  const measured = ordered.filter((run): run is HttpFigure => !isSkipped(run));
  const reference = configurations.at(-1);
  const base = (figure: HttpFigure) =>
    measured.find((other) => other.database === figure.database && other.configuration === reference);
  const where = (run: HttpRun) => [run.database, run.configuration];
  const out: string[] = [];
  out.push(
    "\nThe app over HTTP (next start on the production build, each database in each configuration with a fresh " +
      "database; what ran is what its /api/health said)\n",
  );
  out.push(
    table(
      ["database", "configuration", "/api/health", "search ran", "startup s", "vectors caught up after the loads, s"],
      ordered.map((run) => [
        ...where(run),
        `database: ${run.health.database}, vector: ${run.health.vector}, embedding: ${run.health.embedding ?? "null"}`,
        isSkipped(run) ? `skipped: ${run.skipped}` : legsOf(run.searchLegs),
        isSkipped(run) ? "" : (run.startupMs / 1_000).toFixed(1),
        isSkipped(run) || run.vectorsCaughtUpMs === undefined
          ? ""
          : run.vectorsCaughtUpMs === null
            ? "not quiet in time"
            : (run.vectorsCaughtUpMs / 1_000).toFixed(1),
      ]),
    ),
  );
  if (measured.length === 0) return out;
  const clients = measured[0]?.ingest.parallel.clients;
  const singleClients = measured[0]?.singlePost.clients;
  out.push(
    `\nIngest over HTTP (memories/s; single ratio = single-POST rate ÷ the same database's with ${reference}; ` +
      "vector-searchable: from the last single POST's answer until the server's embedding backlog read zero, every " +
      "memory they wrote then found by meaning)\n",
  );
  out.push(
    table(
      [
        "database",
        "configuration",
        `batches of ${measured[0]?.ingest.batchSize ?? "–"}, 1 client`,
        `batches, ${clients} clients at once`,
        `single POSTs, ${singleClients} clients at once`,
        "single POST p50 / p95 ms",
        "single ratio",
        "event-loop delay p99 / max ms",
        "all single POSTs vector-searchable s",
      ],
      measured.map((figure) => [
        ...where(figure),
        // --smoke loads fewer memories than one batch holds, and the first batch is untimed.
        figure.ingest.memories > 0 ? figure.ingest.rate.toFixed(0) : "–",
        figure.ingest.parallel.rate.toFixed(0),
        figure.singlePost.rate.toFixed(0),
        `${ms(figure.singlePost.latencyMs.p50)} / ${ms(figure.singlePost.latencyMs.p95)}`,
        ratio(figure.singlePost.rate, base(figure)?.singlePost.rate),
        loopDelay(figure.singlePost.loopDelay),
        vectorsSearchable(figure),
      ]),
    ),
  );
  out.push(
    `\nRequests over HTTP (sequential keep-alive requests after a warm-up, one API key; search in the server's default ` +
      "mode; at once: the same searches from several clients, each its own connection; while POSTs: one client " +
      "searching while the single-POST clients send new memories; " +
      `ratio = p50 ÷ the same database's p50 with ${reference})\n`,
  );
  out.push(
    table(
      [
        "database",
        "configuration",
        "memories",
        "GET /api/v1/me p50 / p95 / p99 ms",
        "POST /api/v1/memories/search p50 / p95 / p99 ms",
        `search, ${singleClients} clients at once, p50 / p95 ms`,
        `search while ${singleClients} clients POST, p50 / p95 ms`,
        "search p50 ratio",
        "search recall@10",
      ],
      measured.map((figure) => [
        ...where(figure),
        figure.memories.toLocaleString("en"),
        triple(figure.me),
        triple(figure.search),
        figure.searchAtOnce
          ? `${ms(figure.searchAtOnce.latencyMs.p50)} / ${ms(figure.searchAtOnce.latencyMs.p95)}`
          : "–",
        figure.searchWhilePosting
          ? `${ms(figure.searchWhilePosting.latencyMs.p50)} / ${ms(figure.searchWhilePosting.latencyMs.p95)}`
          : "–",
        ratio(figure.search.p50, base(figure)?.search.p50),
        pct(figure.searchRecallAt10),
      ]),
    ),
  );
  const probe = measured[0]?.searchable;
  out.push(
    "\nWrite to searchable (a new memory POSTed, then a lexical and a vector search for it at once until each " +
      `returns it, every ${probe?.intervalMs} ms; ms from the write's answer to the finding search's answer)\n`,
  );
  out.push(
    table(
      ["database", "configuration", "writes", "lexical p50 / p95 ms", "vector p50 / p95 ms"],
      measured.map((figure) => [
        ...where(figure),
        String(figure.searchable.writes),
        searchable(figure.searchable.lexical, figure.searchable),
        figure.searchable.vector ? searchable(figure.searchable.vector, figure.searchable) : "no vectors",
      ]),
    ),
  );
  const chatting = measured.filter((figure) => figure.chat !== undefined);
  const chat = chatting[0]?.chat;
  if (chat) {
    out.push(
      `\nChatting at once over HTTP (${chat.people} people, each their own key and new thread, ${chat.messagesEach} ` +
        "messages each, the offline model; opening = each person's first request, all at once before anyone chats, " +
        "each on a new connection, as a page load opens one; answer = ms from sending to the end of the streamed " +
        "answer, on that connection, or, where the opening shows –, with the first message opening it; extraction " +
        "caught up = s from the last answer until every thread was extracted to its end)\n",
    );
    out.push(
      table(
        [
          "database",
          "configuration",
          "opening p50 / p95 / p99 ms",
          "answer p50 / p95 / p99 ms",
          "failed",
          "extraction caught up s",
          "event-loop delay p99 / max ms",
        ],
        chatting.map((figure) => {
          const run = figure.chat!;
          return [
            ...where(figure),
            run.openMs ? triple(run.openMs) : "–",
            triple(run.answerMs),
            String(run.failed),
            run.extractionCaughtUpMs === null ? "not in time" : (run.extractionCaughtUpMs / 1_000).toFixed(1),
            loopDelay(run.loopDelay),
          ];
        }),
      ),
    );
  }
  return out;
}

/** The server's event-loop delay over a load, from its metrics; "–" for runs recorded before it was measured. */
function loopDelay(delay: LoopDelay | null | undefined): string {
  if (!delay) return "–";
  return `${ms(delay.p99Ms)} / ${ms(delay.maxMs)}`;
}

/**
 * After the single-POST burst, seconds until all its memories were found by meaning: "no vectors" where the server
 * runs none, "–" for runs recorded before it was measured.
 */
function vectorsSearchable(figure: HttpFigure): string {
  if (!figure.searchable.vector) return "no vectors";
  const elapsed = figure.singlePost.vectorsSearchableMs;
  if (elapsed === undefined) return "–";
  return elapsed === null ? "not in time" : (elapsed / 1_000).toFixed(1);
}

function legsOf(legs: readonly string[]): string {
  if (legs.includes("lexical") && legs.includes("vector")) return "hybrid (lexical + vector)";
  return legs.join(" + ") || "no results";
}

function searchable(figure: SearchableFigure, of: { writes: number; timeoutMs: number }): string {
  const times = `${ms(figure.ms.p50)} / ${ms(figure.ms.p95)}`;
  return figure.found === of.writes ? times : `${times} (${figure.found} found in ${of.timeoutMs / 1_000} s)`;
}

function renderRecall(results: BenchResults): string[] {
  const out: string[] = [];
  const figures = results.recall ?? [];
  const datasets = [...new Set(figures.map((figure) => figure.dataset))];
  // Named, because the floor is chosen again when the confidence is refitted: a run is read at its own.
  const floors = [...new Set(figures.flatMap((figure) => (figure.confident ? [figure.confident.floor] : [])))];
  out.push(
    "\nRecall of the evidence (top 20 asked once per question; recall@k = evidence found in the first k; the " +
      "conversations' questions that nothing answers count when a store returns nothing for them" +
      (floors.length > 0
        ? `, and for Memory Ledger when it returns nothing at or above its confidence floor (${floors.join(", ")} in ` +
          "this run); evidence above the floor is recall@10 counting only hits at or above it)\n"
        : ")\n"),
  );
  for (const dataset of results.recallDatasets ?? []) {
    out.push(
      `- ${dataset.name}: ${dataset.users} users, ${dataset.memories.toLocaleString("en")} memories, ` +
        `${dataset.questions} questions` +
        (dataset.unanswerable ? ` and ${dataset.unanswerable} that nothing answers` : "") +
        (dataset.evidenceSharingAWord === undefined
          ? ""
          : `; ${pct1(dataset.evidenceSharingAWord)} of the evidence has a word in common with its question besides ` +
            "the speakers' names (the rest only a ranking by meaning can find)"),
    );
  }
  for (const dataset of datasets) {
    const rows = figures.filter((figure) => figure.dataset === dataset);
    out.push(`\n${dataset}\n`);
    const unanswered = rows.some((figure) => figure.noAnswer);
    const confident = rows.some((figure) => figure.confident);
    out.push(
      table(
        [
          "store",
          "ranking",
          "recall@1",
          "recall@5",
          "recall@10",
          "recall@20",
          "p50 ms",
          ...(unanswered ? ["no result when nothing answers"] : []),
          ...(confident
            ? ["none above the confidence floor when nothing answers", "evidence above the floor @10"]
            : []),
        ],
        rows.map((figure) => [
          figure.store,
          figure.ranking,
          pct1(figure.recall.at1 ?? Number.NaN),
          pct1(figure.recall.at5),
          pct1(figure.recall.at10),
          pct1(figure.recall.at20),
          ms(figure.latencyMs.p50),
          ...(unanswered ? [figure.noAnswer ? pct1(figure.noAnswer.silent / figure.noAnswer.questions) : "–"] : []),
          ...(confident
            ? [
                figure.noAnswer?.belowFloor === undefined
                  ? "–"
                  : pct1(figure.noAnswer.belowFloor / figure.noAnswer.questions),
                figure.confident ? pct1(figure.confident.at10) : "–",
              ]
            : []),
        ]),
      ),
    );
    const categories = [...new Set(rows.flatMap((figure) => Object.keys(figure.byCategory ?? {})))];
    if (categories.length > 0) {
      const count = (category: string) => rows[0]?.byCategory?.[category]?.questions ?? 0;
      out.push(`\n${dataset}: recall@10 by question type\n`);
      out.push(
        table(
          ["store", ...categories.map((category) => `${category} (${count(category)})`)],
          rows.map((figure) => [
            figure.store,
            ...categories.map((category) => pct1(figure.byCategory?.[category]?.at10 ?? Number.NaN)),
          ]),
        ),
      );
    }
  }
  const curves = figures.filter((figure) => figure.weightCurve?.length);
  if (curves.length > 0) {
    const weights = [...new Set(curves.flatMap((figure) => (figure.weightCurve ?? []).map((point) => point.weight)))];
    out.push("\nWeight curve: recall@10 by vector weight (0 = lexical only, 1 = vector only)\n");
    out.push(
      table(
        ["store", "dataset", ...weights.map((weight) => `w ${weight}`)],
        curves.map((figure) => [
          figure.store,
          figure.dataset,
          ...weights.map((weight) =>
            pct1(figure.weightCurve?.find((point) => point.weight === weight)?.at10 ?? Number.NaN),
          ),
        ]),
      ),
    );
  }
  if (results.embeddingCost?.length) {
    out.push(
      "\nEmbedding cost (time inside the embedding model's doEmbed over the whole run; LangGraph's InMemoryStore " +
        "sends each distinct text of a batch once)\n",
    );
    out.push(
      table(
        ["store", "model", "memory texts embedded", "ms / memory", "queries embedded", "ms / query"],
        results.embeddingCost.map((figure) => [
          figure.store,
          figure.model,
          figure.memories.toLocaleString("en"),
          ms3(figure.msPerMemory),
          figure.queries.toLocaleString("en"),
          ms3(figure.msPerQuery),
        ]),
      ),
    );
  }
  return out;
}

/** Small per-item costs (a hashed vector takes microseconds) keep three decimals. */
const ms3 = (value: number) => (Number.isFinite(value) ? (value < 1 ? value.toFixed(3) : ms(value)) : "–");

/** Writes bench/results/<date>.json (a second run the same day gets the time appended) and returns its path. */
export function writeResults(results: BenchResults, directory = path.join(process.cwd(), "bench", "results")): string {
  mkdirSync(directory, { recursive: true });
  const stamp = results.startedAt.slice(0, 19).replace(/:/g, "-");
  const file = path.join(directory, `${stamp.slice(0, 10)}${results.scale === "smoke" ? "-smoke" : ""}.json`);
  const target = existsSync(file) ? file.replace(/\.json$/, `-${stamp.slice(11)}.json`) : file;
  // Whole or not at all: the performance page (and its test) may read the directory while a run writes to it.
  writeFileSync(`${target}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(`${target}.tmp`, target);
  return target;
}

/** The hygiene suite: the planted mess before and after one consolidation run, and what the run cost, per variant. */
export function renderHygiene(recorded: NonNullable<BenchResults["hygiene"]>): string {
  const figures = Array.isArray(recorded)
    ? recorded
    : [{ ...recorded, half: "tune" as const, manager: "scripted" as const }];
  return figures.map(renderHygieneFigure).join("\n");
}

function renderHygieneFigure(figure: HygieneFigure): string {
  const { planted, before, after, run } = figure;
  const row = (label: string, pick: (side: HygieneFigure["before"]) => string) => [label, pick(before), pick(after)];
  const manager = figure.manager === "scripted" ? "a scripted manager re-adding facts" : "the offline model";
  return [
    `\nMemory hygiene, ${figure.half} half, extracted by ${manager} (${figure.people} people; planted ${planted.paraphrases} paraphrases, ${planted.changedValues} changed values, ${planted.pastPlans} past plans; one consolidation run each, offline model)\n\n`,
    table(
      ["", "before", "after"],
      [
        row("active memories", (side) => String(side.memories)),
        row("duplicate pairs the finder sees", (side) => String(side.duplicatePairs)),
        row("duplicate rate % (planted restatements standing / memories)", (side) => side.duplicateRate.toFixed(2)),
        row("people with a planted paraphrase left", (side) => String(side.plantedDuplicates)),
        row("unresolved planted conflicts", (side) => String(side.unresolvedConflicts)),
        row("expired plans in recall (top 10)", (side) => String(side.expiredInRecall)),
        row("recall@10", (side) => side.recallAt10.toFixed(3)),
        ...(after.recallAt1 === undefined ? [] : [row("recall@1", (side) => side.recallAt1?.toFixed(3) ?? "–")]),
      ],
    ),
    `\n\nPer run: ${(run.groups / figure.people).toFixed(1)} groups, ${(run.modelCalls / figure.people).toFixed(1)} model calls, ` +
      `${Math.round(run.inputTokens / figure.people)} input and ${Math.round(run.outputTokens / figure.people)} output tokens; ` +
      `${run.applied} ops applied, ${run.rejected} rejected or held in all` +
      (run.restatementsShown === undefined
        ? "."
        : `; ${run.restatementsShown} of ${planted.paraphrases} planted restatements paired with the fact they restate.`),
    after.bySupport
      ? "\n\nRanked by support after the run (each question's top 10 in the order of score × (1 + w × ln support)): " +
        `w 0 (the search's order): recall@1 ${after.recallAt1?.toFixed(3) ?? "–"}, ` +
        after.bySupport
          .map(
            ({ weight, recallAt1, firstChanged }) =>
              `w ${weight}: ${recallAt1.toFixed(3)} (${firstChanged} first hits changed)`,
          )
          .join(", ") +
        "."
      : "",
  ].join("");
}

import { describe, expect, it } from "vitest";
import { summarize } from "@/bench/metrics";
import { headlines } from "@/bench/performance-page";
import { type BenchResults, renderHttp } from "@/bench/report";
import type { HttpFigure, HttpRun, LegacyHttpFigure } from "@/bench/suites/http";

const latency = (p50: number) => summarize([p50, p50, p50 * 2]);

function measured(
  database: string,
  configuration: string,
  vector: boolean,
  searchP50: number,
  atOnceP50?: number,
  whilePostingP50?: number,
): HttpFigure {
  return {
    database,
    configuration,
    health: { database: database.toLowerCase(), vector, embedding: vector ? "local:use-lite" : null },
    memories: 1_000,
    startupMs: 2_000,
    ingest: {
      endpoint: "batch",
      batchSize: 500,
      memories: 9_500,
      rate: 2_000,
      statuses: { 201: 20 },
      parallel: { clients: 4, memories: 10_000, rate: 2_500 },
    },
    ...(vector ? { vectorsCaughtUpMs: 42_000 } : {}),
    me: latency(1.5),
    search: latency(searchP50),
    ...(atOnceP50 === undefined ? {} : { searchAtOnce: { clients: 8, latencyMs: latency(atOnceP50) } }),
    ...(whilePostingP50 === undefined
      ? {}
      : { searchWhilePosting: { posters: 8, searches: 60, latencyMs: latency(whilePostingP50) } }),
    searchRecallAt10: 0.6,
    searchLegs: vector ? ["lexical", "vector"] : ["lexical"],
    singlePost: {
      clients: 8,
      memories: 400,
      rate: vector ? 150 : 300,
      latencyMs: latency(20),
      loopDelay: { p99Ms: vector ? 40 : 12, maxMs: vector ? 95 : 30, scrapes: 3 },
      ...(vector ? { vectorsSearchableMs: 3_400 } : {}),
    },
    searchable: {
      writes: 20,
      intervalMs: 100,
      timeoutMs: 60_000,
      lexical: { found: 20, ms: latency(3), meanPolls: 1 },
      ...(vector ? { vector: { found: 19, ms: latency(1_200), meanPolls: 12 } } : {}),
    },
    chat: {
      people: 50,
      messagesEach: 4,
      openMs: latency(vector ? 900 : 300),
      answerMs: latency(vector ? 400 : 150),
      failed: 0,
      extractionCaughtUpMs: vector ? null : 6_500,
      loopDelay: { p99Ms: 25, maxMs: 60, scrapes: 4 },
    },
  };
}

const runs: HttpRun[] = [
  measured("PGlite", "default", true, 30, 45, 120),
  measured("PGlite", "EMBEDDING_MODEL=none", false, 12),
  {
    database: "PostgreSQL 15",
    configuration: "default",
    health: { database: "postgres", vector: false, embedding: "local:use-lite" },
    skipped: "the server runs no vectors here",
  },
  measured("PostgreSQL 15", "EMBEDDING_MODEL=none", false, 6),
];

/** The cells of the first table after `title`, its header first. */
const rowsOf = (text: string, title: string) => {
  const lines = text.slice(text.indexOf(title)).split("\n");
  const start = lines.findIndex((line) => line.startsWith("| "));
  const end = lines.findIndex((line, index) => index > start && !line.startsWith("| "));
  return lines
    .slice(start, end < 0 ? undefined : end)
    .filter((line) => !line.startsWith("| -"))
    .map((line) => line.split("|").map((cell) => cell.trim()));
};

/** What a run before configurations recorded. */
function legacyOf(figure: HttpFigure): LegacyHttpFigure {
  const { database, memories, startupMs, ingest, me, search, searchRecallAt10 } = figure;
  return { database, memories, startupMs, ingest, me, search, searchRecallAt10 };
}

describe("the HTTP report", () => {
  const text = renderHttp(runs).join("\n");

  it("lists the default configuration's runs first, with what /api/health said, a skipped run only there", () => {
    const rows = rowsOf(text, "The app over HTTP");
    expect(rows.map((row) => [row[1], row[2]])).toEqual([
      ["database", "configuration"],
      ["PGlite", "default"],
      ["PostgreSQL 15", "default"],
      ["PGlite", "EMBEDDING_MODEL=none"],
      ["PostgreSQL 15", "EMBEDDING_MODEL=none"],
    ]);
    expect(rows[1]?.[3]).toBe("database: pglite, vector: true, embedding: local:use-lite");
    expect(rows[1]?.[4]).toBe("hybrid (lexical + vector)");
    expect(rows[1]?.[6]).toBe("42.0");
    expect(rows[2]?.[3]).toContain("vector: false");
    expect(rows[2]?.[4]).toBe("skipped: the server runs no vectors here");
    expect(rows[3]?.[4]).toBe("lexical");
    const requests = rowsOf(text, "Requests over HTTP");
    expect(requests.map((row) => row[1])).toEqual(["database", "PGlite", "PGlite", "PostgreSQL 15"]);
  });

  it("compares each database's figures with its own EMBEDDING_MODEL=none figures from the same run", () => {
    const requests = rowsOf(text, "Requests over HTTP");
    const ratioColumn = requests[0]!.indexOf("search p50 ratio");
    expect(requests.slice(1).map((row) => row[ratioColumn])).toEqual(["2.5×", "1.0×", "1.0×"]);
    const ingest = rowsOf(text, "Ingest over HTTP");
    expect(ingest[0]).toContain("single POSTs, 8 clients at once");
    expect(ingest[1]?.at(-4)).toBe("0.5×");
  });

  it("shows the searches from several clients at once where they were measured, a dash for a run before them", () => {
    const requests = rowsOf(text, "Requests over HTTP");
    const column = requests[0]!.indexOf("search, 8 clients at once, p50 / p95 ms");
    expect(column).toBeGreaterThan(0);
    expect(requests.slice(1).map((row) => row[column])).toEqual(["45 / 90", "–", "–"]);
  });

  it("shows the searches while the single-POST clients wrote where they were measured, a dash for a run before them", () => {
    const requests = rowsOf(text, "Requests over HTTP");
    const column = requests[0]!.indexOf("search while 8 clients POST, p50 / p95 ms");
    expect(column).toBeGreaterThan(0);
    expect(requests.slice(1).map((row) => row[column])).toEqual(["120 / 240", "–", "–"]);
  });

  it("shows both write-to-searchable times where vectors ran, and how many were found when not all", () => {
    const rows = rowsOf(text, "Write to searchable");
    expect(rows[1]?.slice(1, 6)).toEqual(["PGlite", "default", "20", "3.00 / 6.00", "1200 / 2400 (19 found in 60 s)"]);
    expect(rows[2]?.[5]).toBe("no vectors");
  });

  it("shows the event-loop delay under the single POSTs, and the chat under load with its extraction catch-up", () => {
    expect(rowsOf(text, "Ingest over HTTP")[1]?.at(-3)).toBe("40 / 95");
    const chat = rowsOf(text, "Chatting at once over HTTP");
    expect(chat[0]?.slice(1, 8)).toEqual([
      "database",
      "configuration",
      "opening p50 / p95 / p99 ms",
      "answer p50 / p95 / p99 ms",
      "failed",
      "extraction caught up s",
      "event-loop delay p99 / max ms",
    ]);
    expect(chat[1]?.slice(1, 8)).toEqual([
      "PGlite",
      "default",
      "900 / 1800 / 1800",
      "400 / 800 / 800",
      "0",
      "not in time",
      "25 / 60",
    ]);
    expect(chat[2]?.[6]).toBe("6.5");
    const { chat: _, ...before } = measured("PGlite", "default", true, 30);
    const older = renderHttp([{ ...before, singlePost: { ...before.singlePost, loopDelay: undefined } }]).join("\n");
    expect(older).not.toContain("Chatting at once");
    const { openMs: __, ...unopened } = measured("PGlite", "default", true, 30).chat!;
    const beforeOpening = renderHttp([{ ...before, chat: unopened }]).join("\n");
    expect(rowsOf(beforeOpening, "Chatting at once over HTTP")[1]?.slice(3, 5)).toEqual(["–", "400 / 800 / 800"]);
    expect(rowsOf(older, "Ingest over HTTP")[1]?.at(-3)).toBe("–");
  });

  it("shows how long after a burst of single POSTs all their memories were found by meaning, where vectors ran", () => {
    const column = (lines: string[]) => {
      const rows = rowsOf(lines.join("\n"), "Ingest over HTTP");
      const at = rows[0]!.indexOf("all single POSTs vector-searchable s");
      return rows.slice(1).map((row) => row[at]);
    };
    expect(column(renderHttp(runs))).toEqual(["3.4", "no vectors", "no vectors"]);
    const figure = measured("PGlite", "default", true, 30);
    const late = { ...figure, singlePost: { ...figure.singlePost, vectorsSearchableMs: null } };
    const { vectorsSearchableMs: _, ...unmeasured } = figure.singlePost;
    expect(column(renderHttp([late, { ...figure, singlePost: unmeasured }]))).toEqual(["not in time", "–"]);
    const names = headlines({ search: [], ingest: [], http: runs } as unknown as BenchResults).map((f) => f.name);
    expect(names.filter((name) => name.startsWith("HTTP single POSTs all vector-searchable"))).toEqual([
      "HTTP single POSTs all vector-searchable, PGlite, default",
    ]);
  });

  it("prints a run from before configurations as it always did", () => {
    const lines = renderHttp([legacyOf(measured("PGlite", "default", false, 13))]);
    expect(lines[0]).toBe(
      "\nThe app over HTTP (next start, sequential keep-alive requests after a warm-up, one API key)\n",
    );
    expect(lines.join("\n")).not.toContain("configuration");
  });

  it("names each headline figure by database and configuration, and a skipped run has none", () => {
    const results = { search: [], ingest: [], http: runs } as unknown as BenchResults;
    const names = headlines(results).map((figure) => figure.name);
    expect(names).toContain("HTTP search p50, PGlite, default");
    expect(names).toContain("HTTP vector searchable p50, PGlite, default");
    expect(names).toContain("HTTP single POST, PostgreSQL 15, EMBEDDING_MODEL=none");
    expect(names).not.toContain("HTTP vector searchable p50, PGlite, EMBEDDING_MODEL=none");
    expect(names.filter((name) => name.includes("PostgreSQL 15, default"))).toEqual([]);
    const legacy = { search: [], ingest: [], http: [legacyOf(measured("PGlite", "x", false, 13))] };
    expect(headlines(legacy as unknown as BenchResults).map((figure) => figure.name)).toEqual([
      "HTTP search p50, PGlite",
      "HTTP /me p50, PGlite",
      "HTTP batch ingest, PGlite",
    ]);
  });
});

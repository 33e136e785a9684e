import { parseArgs } from "node:util";
import { LOCAL_EMBEDDING_MODEL_ID } from "@/lib/ai/local-embedding";
import { type ScaleName, scales } from "./data/scales";

/**
 * `--only` names (comma-separated; all of them by default):
 * - search: latency, recall@10 and cross-user rows of every store on the generated data, per memories-per-user bucket
 * - ingest: single and batched writes into the loaded stores
 * - chat, extraction, list: Memory Ledger's own paths (chat turn over HTTP, memory manager, console list page)
 * - recall: recall@5/10/20 of every store, each search mode Memory Ledger offers and the BM25 library peer, on the
 *   generated data and on the conversational dataset (with and without speaker names); per-category recall@10,
 *   embedding cost, and a weight curve for stores with `searchWithWeight`
 * - http: the real app (`next start` on the production build) with a scratch PGlite and a scratch PostgreSQL
 *   database, each in the default configuration (the bundled encoder, hybrid search) and then EMBEDDING_MODEL=none:
 *   batch ingest rate, single-POST rate from several clients, p50/p95/p99 of GET /api/v1/me and
 *   POST /api/v1/memories/search, and how long after a write a lexical and a vector search return it
 * - hygiene: planted paraphrases, changed values and past plans through extraction, then one consolidation run:
 *   duplicate rate, unresolved conflicts, expired facts in recall and recall@10 before and after, the run's cost
 */
export const SUITES = ["search", "ingest", "chat", "extraction", "list", "recall", "http", "hygiene"] as const;
export type Suite = (typeof SUITES)[number];

export interface BenchOptions {
  scale: ScaleName;
  suites: Set<Suite>;
  seed: number;
  /** Admin connection string of the local PostgreSQL for Memory Ledger and PostgresStore (a scratch database). */
  postgresUrl: string;
  /** Per store and bucket, the search phase stops after this long. */
  searchBudgetMs: number;
  ingest: { single: number; batch: number };
  chatTurns: number;
  extractionRuns: number;
  /** People the hygiene suite plants months of conversations for. */
  hygienePeople: number;
  /** The hygiene suite's halves (`--half tune` while rules are worked on: the report half is not to be looked at). */
  hygieneHalves: Array<"tune" | "report">;
  listRepeats: number;
  /** Embedding model of the stores that embed: `bench:hashed-128`, or a `provider:model` of the app's registry. */
  embedding: string;
  /** Vector weights of the weight curve (recall@10 at each), for stores that expose searchWithWeight. */
  weights: number[];
  http: {
    memories: number;
    ingestMemories: number;
    requests: number;
    singleClients: number;
    singlePosts: number;
    searchableWrites: number;
    /** People chatting at once over HTTP (each their own key and thread), and the messages each sends. */
    chatPeople: number;
    chatMessages: number;
  };
}

const DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/test";

export function parseOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      smoke: { type: "boolean", default: false },
      scale: { type: "string" },
      only: { type: "string" },
      seed: { type: "string", default: "42" },
      postgres: { type: "string" },
      embedding: { type: "string" },
      weights: { type: "string" },
      half: { type: "string" },
    },
  });
  const scale = values.smoke ? "smoke" : (values.scale ?? "100k");
  if (!(scale in scales)) throw new Error(`--scale must be one of ${Object.keys(scales).join(", ")}`);
  const only = values.only?.split(",").map((name) => name.trim()) ?? [...SUITES];
  const unknown = only.filter((name) => !SUITES.includes(name as Suite));
  if (unknown.length > 0) throw new Error(`unknown suite(s) ${unknown.join(", ")}; choose from ${SUITES.join(", ")}`);
  const smoke = scale === "smoke";
  return {
    scale: scale as ScaleName,
    suites: new Set(only as Suite[]),
    seed: Number(values.seed),
    postgresUrl: values.postgres ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_POSTGRES,
    searchBudgetMs: smoke ? 10_000 : 120_000,
    ingest: smoke ? { single: 20, batch: 200 } : { single: 300, batch: 3_000 },
    chatTurns: smoke ? 4 : 20,
    extractionRuns: smoke ? 2 : 10,
    hygienePeople: smoke ? 2 : 20,
    hygieneHalves: parseHalves(values.half),
    listRepeats: smoke ? 3 : 20,
    embedding: values.embedding ?? process.env.BENCH_EMBEDDING_MODEL ?? LOCAL_EMBEDDING_MODEL_ID,
    weights: parseWeights(values.weights ?? (smoke ? "0,0.5,1" : "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1")),
    http: smoke
      ? {
          memories: 100,
          ingestMemories: 200,
          requests: 20,
          singleClients: 2,
          singlePosts: 10,
          searchableWrites: 3,
          chatPeople: 3,
          chatMessages: 2,
        }
      : {
          memories: 1_000,
          ingestMemories: 10_000,
          requests: 300,
          singleClients: 8,
          singlePosts: 50,
          searchableWrites: 20,
          chatPeople: 50,
          chatMessages: 4,
        },
  };
}

function parseWeights(list: string): number[] {
  const weights = list.split(",").map((part) => Number(part.trim()));
  if (weights.some((weight) => !Number.isFinite(weight) || weight < 0 || weight > 1)) {
    throw new Error("--weights must be comma-separated numbers between 0 and 1");
  }
  return weights;
}

function parseHalves(value: string | undefined): Array<"tune" | "report"> {
  if (value === undefined) return ["tune", "report"];
  if (value !== "tune" && value !== "report") throw new Error("--half must be tune or report");
  return [value];
}

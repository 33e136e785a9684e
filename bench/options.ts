import { parseArgs } from "node:util";
import { type ScaleName, scales } from "./data/scales";

export const SUITES = ["search", "ingest", "chat", "extraction", "list"] as const;
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
  listRepeats: number;
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
    listRepeats: smoke ? 3 : 20,
  };
}

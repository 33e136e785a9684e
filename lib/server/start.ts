import { embeddingModelId } from "@/lib/ai/config";
import { LOCAL_EMBEDDING_MODEL_ID, localEncoderPool } from "@/lib/ai/local-embedding";
import { recordSocketAddresses } from "@/lib/api/client-address";
import { resolveAuthSecret } from "@/lib/auth/secret";
import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { keepPlannerStatistics } from "@/lib/db/planner-statistics";
import { logFailure, structureConsole } from "@/lib/log";
import { warmSearch } from "@/lib/memory/search";
import { startProcessTelemetry } from "./telemetry";

/**
 * Runs once when a Next.js server process starts: fail fast on bad configuration, open and migrate the database, read
 * the word tables search consults before the first request (about a second), then warm its word lexemes and the local
 * encoder in the background (requests are served meanwhile; until it ends, a noun's first question costs a few
 * milliseconds more); on PGlite, keep the planner's statistics as autovacuum would.
 */
export async function startServer() {
  // First, before anything is awaited: the sign-in limits count per socket address from the first request on.
  recordSocketAddresses();
  structureConsole();
  try {
    config();
    resolveAuthSecret();
  } catch (error) {
    console.error(`\n${(error as Error).message}\n`);
    process.exit(1);
  }
  // Before anything else is served, so the first request is traced (docs/observability.md).
  const telemetry = startProcessTelemetry();
  const database = await getDatabase();
  void warmSearch(database).catch((error) => logFailure("Warming search", error, "warn"));
  // The local encoder's query thread loads its model now rather than in the first search (docs/architecture.md,
  // "Embed locally"); without pgvector nothing is embedded.
  if (database.vector && embeddingModelId() === LOCAL_EMBEDDING_MODEL_ID) {
    localEncoderPool(config().LOCAL_EMBEDDING_THREADS, config().LOCAL_EMBEDDING_NICENESS);
  }
  // PostgreSQL's autovacuum keeps its planner statistics; PGlite has none, so its one process does.
  if (database.kind === "pglite") keepPlannerStatistics(database);
  if (config().WORKER === "inline") {
    const { startWorker } = await import("./worker");
    const stop = await startWorker();
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.once(signal, () => {
        void stop()
          .then(() => telemetry.shutdown())
          .finally(() => process.exit(0));
      });
    }
  }
}

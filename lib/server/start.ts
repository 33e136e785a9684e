import { checkUsageConfig } from "@/lib/ai/prices";
import { resolveAuthSecret } from "@/lib/auth/secret";
import { getDatabase } from "@/lib/db";
import { redactErrorsInConsole } from "@/lib/log";

/** Runs once when a Next.js server process starts: fail fast on bad configuration, then open and migrate the database. */
export async function startServer() {
  redactErrorsInConsole();
  try {
    resolveAuthSecret();
    checkUsageConfig();
  } catch (error) {
    console.error(`\n${(error as Error).message}\n`);
    process.exit(1);
  }
  await getDatabase();
  if (process.env.WORKER !== "off") {
    const { startWorker } = await import("./jobs");
    const stop = await startWorker();
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.once(signal, () => {
        void stop().finally(() => process.exit(0));
      });
    }
  }
}

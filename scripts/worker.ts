// Standalone worker (extraction and embedding jobs) for scale-out: `npm run worker` (set WORKER=off on the web processes).
import { getDatabase } from "../lib/db";
import { structureConsole } from "../lib/log";
import { startProcessTelemetry } from "../lib/server/telemetry";
import { startWorker } from "../lib/server/worker";

structureConsole();
const telemetry = startProcessTelemetry();
const stop = await startWorker();
const database = await getDatabase();
console.log(`extraction worker ready (${database.kind})`);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    await telemetry.shutdown();
    await database.close();
    process.exit(0);
  });
}

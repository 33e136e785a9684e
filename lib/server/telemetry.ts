import { configuredEmbeddingModel } from "@/lib/ai/models";
import { getDatabase } from "@/lib/db";
import { embeddingBacklogAcrossUsers } from "@/lib/memory/search";
import { startTelemetry, type Telemetry } from "@/lib/telemetry/sdk";
import { getJobQueue } from "./jobs";

/**
 * This process's telemetry (lib/telemetry/sdk.ts) with the gauges that read the database when metrics are collected.
 * Started first thing, before the database opens, so the first request is traced.
 */
export function startProcessTelemetry(): Telemetry {
  return startTelemetry({
    embeddingBacklog: async () => {
      const model = configuredEmbeddingModel();
      return model ? (await embeddingBacklogAcrossUsers(await getDatabase(), model)).pending : 0;
    },
    queueDepths: async () => (await getJobQueue()).depths(),
  });
}

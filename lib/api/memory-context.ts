import { configuredEmbeddingModel } from "@/lib/ai/models";
import type { Principal } from "@/lib/auth/principal";
import { getDatabase } from "@/lib/db";
import { type MemoryContext, systemClock } from "@/lib/memory";

/**
 * The memory context for an HTTP request: the process database, the caller as a `user` writer, writes marked as
 * coming from the API. The database comes only through getDatabase(), which tests replace.
 */
export async function memoryContextFor(principal: Principal): Promise<MemoryContext> {
  return {
    database: await getDatabase(),
    principal: { userId: principal.userId, root: principal.root },
    actor: { type: "user", id: principal.userId },
    clock: systemClock,
    provenance: { source: "api" },
    embeddingModel: configuredEmbeddingModel(),
  };
}

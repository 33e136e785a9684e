import type { Principal } from "@/lib/auth/principal";
import { getDatabase } from "@/lib/db";
import { type Actor, type MemoryContext, systemClock } from "@/lib/memory/core";
import { memoryQuotaFor } from "@/lib/server/quotas";
import { backgroundWiring } from "@/lib/server/wiring";

/**
 * The memory context for an HTTP request: the process database, the caller as the writer (the user, or the API key
 * it sent), writes marked as coming from the API. The database comes only through getDatabase(), which tests replace.
 */
export async function memoryContextFor(
  principal: Principal,
  actor: Actor = { type: "user", id: principal.userId },
): Promise<MemoryContext> {
  return {
    database: await getDatabase(),
    principal: { userId: principal.userId, root: principal.root },
    actor,
    clock: systemClock,
    provenance: { source: "api" },
    memoryQuota: memoryQuotaFor(principal.isGuest),
    ...backgroundWiring(),
  };
}

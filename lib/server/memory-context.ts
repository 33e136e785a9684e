import type { Principal } from "@/lib/auth/principal";
import { type Database, getDatabase } from "@/lib/db";
import type { SourceType } from "@/lib/memory/contract";
import { type Actor, type MemoryContext, systemClock } from "@/lib/memory/core";
import { memoryQuotaFor } from "./quotas";
import { backgroundWiring } from "./wiring";

/**
 * Where a context's calls come from: an HTTP request (REST, MCP, the LangGraph store, the chat route), the console
 * (its pages and server actions), or a queued job (extraction, the optimizer, embedding).
 */
export type Surface = "api" | "console" | "job";

/** The source a surface's writes record unless a write names its own (a job's writes name theirs, by run). */
const SOURCE_OF: Record<Surface, SourceType | undefined> = { api: "api", console: "console", job: undefined };

/** Whose memories: the user, the namespace root the context may reach, and whether they are a guest (their quota). */
export type ContextPrincipal = Pick<Principal, "userId" | "root" | "isGuest">;

export interface MemoryContextOptions {
  /** The writer; the principal's own user unless someone else acts (an API key, an admin, the extraction model). */
  actor?: Actor;
  /** The database the caller already holds (a worker's, a page's); the process database otherwise. */
  database?: Database;
}

/**
 * The one way this app turns a principal and a surface into a MemoryContext: the system clock, the user's memory
 * quota, and writes that hand their vectors, webhook deliveries and feedback to the queue once they commit. The
 * database comes through getDatabase() unless given, which tests replace.
 */
export async function memoryContextFor(
  principal: ContextPrincipal,
  surface: Surface,
  options: MemoryContextOptions = {},
): Promise<MemoryContext> {
  const source = SOURCE_OF[surface];
  return {
    database: options.database ?? (await getDatabase()),
    principal: { userId: principal.userId, root: principal.root },
    actor: options.actor ?? { type: "user", id: principal.userId },
    clock: systemClock,
    ...(source ? { provenance: { source } } : {}),
    memoryQuota: memoryQuotaFor(principal.isGuest),
    ...backgroundWiring(),
  };
}

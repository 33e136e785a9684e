import type { Principal } from "@/lib/auth/principal";
import type { Database } from "@/lib/db/client";
import type { ConsolidationJobData, ExtractionJobData, OptimizerJobData, WebhookJobData } from "@/lib/server/queue";

/**
 * What route and server-action tests stand in for, read by the mocks in ./route-mocks.ts: the database
 * `getDatabase()` returns, the session `currentPrincipal()` returns, the request headers and cookies actions read,
 * what routes enqueue or hand to `after()`, and the paths actions revalidate.
 */
export const routeHarness = emptyHarness();

function emptyHarness() {
  return {
    database: undefined as Database | undefined,
    principal: null as Principal | null,
    requestHeaders: new Headers(),
    cookies: undefined as unknown,
    enqueued: [] as ExtractionJobData[],
    webhookJobs: [] as WebhookJobData[],
    optimizerJobs: [] as OptimizerJobData[],
    consolidationJobs: [] as ConsolidationJobData[],
    pending: [] as Promise<unknown>[],
    revalidated: [] as string[],
  };
}

/** Empties the harness: a file of the routes project starts from nothing the file before it in its worker left. */
export function resetRouteHarness() {
  Object.assign(routeHarness, emptyHarness());
}

export function harnessDatabase(): Database {
  if (!routeHarness.database) throw new Error("no test database");
  return routeHarness.database;
}

/** A signed-in person's principal, rooted at their own namespace. */
export const principalFor = (userId: string, role: Principal["role"] = "user"): Principal => ({
  userId,
  role,
  root: ["users", userId],
  isGuest: false,
  email: null,
  name: null,
});

import { vi } from "vitest";

/**
 * Route handlers and server actions called directly, as Next.js would call them. Import this module first (as a
 * bare `import "../support/route-mocks"`): its mocks apply to every module imported after it, and they read what
 * each test sets in ./route-harness.ts.
 */
const harness = async () => (await import("./route-harness")).routeHarness;

// In the routes project this module is a setup file, run again before each file: the mocks are registered anew (a
// worker's module registry forgets them between files) and the harness is emptied (vitest.config.ts).
(await import("./route-harness")).resetRouteHarness();

vi.mock("server-only", () => ({}));
vi.mock("@/lib/auth/session", () => ({ currentPrincipal: async () => (await harness()).principal }));
vi.mock("@/lib/db", () => ({
  getDatabase: async () => (await import("./route-harness")).harnessDatabase(),
}));
// Jobs routes enqueue are recorded, not run; the job handler itself stays real.
vi.mock("@/lib/server/jobs", async (original) => ({
  ...(await original<typeof import("@/lib/server/jobs")>()),
  getJobQueue: async () => ({
    enqueue: async (job: { userId: string; threadId: string }) => {
      (await harness()).enqueued.push(job);
    },
    scheduleEmbedding: async () => {},
    depths: async () => [],
    enqueueOptimizer: async (job: { userId: string }) => {
      (await harness()).optimizerJobs.push(job);
    },
    enqueueConsolidation: async (job: import("@/lib/server/queue").ConsolidationJobData) => {
      (await harness()).consolidationJobs.push(job);
    },
    sendWebhookDeliveries: async (jobs: Array<{ userId: string; deliveryId: string; attempt: number }>) => {
      (await harness()).webhookJobs.push(...jobs);
    },
  }),
}));
vi.mock("next/server", async (original) => {
  const state = await harness();
  return {
    ...(await original<typeof import("next/server")>()),
    after: (task: () => Promise<unknown>) => {
      state.pending.push(task());
    },
  };
});
vi.mock("next/headers", () => ({
  headers: async () => (await harness()).requestHeaders,
  cookies: async () => (await harness()).cookies,
}));
vi.mock("next/cache", async () => {
  const state = await harness();
  return { revalidatePath: (path: string) => state.revalidated.push(path) };
});

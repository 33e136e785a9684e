import { and, count, eq, gt, max } from "drizzle-orm";
import { configuredEmbeddingModel } from "@/lib/ai/models";
import type { Database } from "@/lib/db";
import { extractionRuns, optimizerRuns } from "@/lib/db/schema";
import { type FailedAttempt, type LoggedProblem, recentFailedAttempts, recentProblems } from "@/lib/log";
import { embeddingBacklogAcrossUsers } from "@/lib/memory/search";
import type { JobQueue } from "./queue";

/** How far back the System page counts failed runs. */
const FAILED_RUNS_WINDOW_MS = 24 * 3_600_000;

export interface SystemStatus {
  queues: Array<{ queue: string; state: string; jobs: number }>;
  /** Memories waiting for a vector across users; null when no embedding model is configured. */
  embeddingBacklog: number | null;
  failedRuns: Array<{ kind: "extraction" | "optimizer"; failed: number; latest: Date | null }>;
  /** This process's failed attempts at a model call, by where and the error's class. */
  failureClasses: Array<{ context: string; error: string; status?: number; attempts: number; latest: string }>;
  /** This process's latest warnings and errors, as logged (ids and error classes, no user text). */
  problems: readonly LoggedProblem[];
}

/**
 * What an on-call person looks at first (the console's System page, admins only): the queues, the embedding
 * backlog, runs that failed lately and why, and the latest problems logged. Read across users, unbound: counts and
 * error classes only, never a memory or a message.
 */
export async function systemStatus(database: Database, queue: JobQueue, now = new Date()): Promise<SystemStatus> {
  const model = configuredEmbeddingModel();
  const [queues, backlog, failedRuns] = await Promise.all([
    queue.depths(),
    model ? embeddingBacklogAcrossUsers(database, model) : null,
    countFailedRuns(database, new Date(now.getTime() - FAILED_RUNS_WINDOW_MS)),
  ]);
  return {
    queues: queues.sort((a, b) => a.queue.localeCompare(b.queue) || a.state.localeCompare(b.state)),
    embeddingBacklog: backlog?.pending ?? null,
    failedRuns,
    failureClasses: byClass(recentFailedAttempts()),
    problems: recentProblems(),
  };
}

async function countFailedRuns(database: Database, since: Date): Promise<SystemStatus["failedRuns"]> {
  const { db } = database.unbound;
  const [[extraction], [optimizer]] = await Promise.all([
    db
      .select({ failed: count(), latest: max(extractionRuns.createdAt) })
      .from(extractionRuns)
      .where(and(eq(extractionRuns.status, "failed"), gt(extractionRuns.createdAt, since))),
    db
      .select({ failed: count(), latest: max(optimizerRuns.createdAt) })
      .from(optimizerRuns)
      .where(and(eq(optimizerRuns.status, "failed"), gt(optimizerRuns.createdAt, since))),
  ]);
  return [
    { kind: "extraction", failed: extraction?.failed ?? 0, latest: extraction?.latest ?? null },
    { kind: "optimizer", failed: optimizer?.failed ?? 0, latest: optimizer?.latest ?? null },
  ];
}

function byClass(attempts: readonly FailedAttempt[]): SystemStatus["failureClasses"] {
  const groups = new Map<string, SystemStatus["failureClasses"][number]>();
  for (const attempt of attempts) {
    const key = `${attempt.context}\u0000${attempt.error}\u0000${attempt.status ?? ""}`;
    const group = groups.get(key);
    if (group) group.attempts += 1;
    // Attempts come newest first: the first of a group is its latest.
    else
      groups.set(key, {
        context: attempt.context,
        error: attempt.error,
        status: attempt.status,
        attempts: 1,
        latest: attempt.time,
      });
  }
  return [...groups.values()];
}

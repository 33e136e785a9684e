/** What a background run's record says of its life: the columns extraction and consolidation runs share. */
export interface RunLife {
  attempts: number;
  error: string | null;
  revertedAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** A run's life as the API gives it, dates as ISO strings (both run kinds' JSON end with these fields). */
export function serializeRunLife(run: RunLife) {
  return {
    attempts: run.attempts,
    error: run.error,
    revertedAt: run.revertedAt?.toISOString() ?? null,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

import type { JobWithMetadata } from "pg-boss";
import { withLogFields } from "@/lib/log";
import { errorClass, inSpan, linksTo, traceCarrier } from "@/lib/telemetry";
import { instruments } from "@/lib/telemetry/metrics";

/** A job's data with the trace context of the request that queued it, when that request was traced. */
type Traced = { trace?: Record<string, string> };

export function traced<T extends object>(data: T): T & Traced {
  const carrier = traceCarrier();
  return carrier ? { ...data, trace: carrier } : data;
}

/**
 * Runs one job's handler in a span of its own, linked to the request that queued it, not its child: a job may run
 * long after that request ended. pg-boss runs the handler in its own `process` span, which starts a trace of its own;
 * this one goes under it.
 */
export async function runJob<T extends object>(
  queue: string,
  job: JobWithMetadata<T>,
  handle: (job: JobWithMetadata<T>) => Promise<void>,
): Promise<void> {
  // A job the scheduler sent (guest expiry, the daily passes) carries no data at all: null, not {}.
  const links = linksTo((job.data as Traced | null)?.trace);
  await withLogFields({ job_id: job.id, queue }, () =>
    inSpan(
      `job ${queue}`,
      { "job.id": job.id, "job.queue": queue, "job.retry_count": job.retryCount },
      async () => {
        try {
          await handle(job);
          instruments().jobs.add(1, { queue, outcome: "completed" });
        } catch (error) {
          instruments().jobs.add(1, { queue, outcome: "failed", "error.type": errorClass(error) });
          throw queueSafeError(error);
        }
      },
      { links },
    ),
  );
}

/**
 * What the queue keeps of a failed attempt: the error's class and, for a provider error, its HTTP status — never its
 * message or fields. pg-boss stores every enumerable property of a thrown error in its job rows, a provider error
 * carries the whole request (the prompt: memories, deleted facts, messages), and those rows outlive a purge. The
 * run record keeps the readable reason.
 */
function queueSafeError(error: unknown): Error {
  const name = error instanceof Error ? error.name || "Error" : typeof error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  const safe = new Error(
    `job attempt failed: ${name}${typeof status === "number" ? ` (HTTP ${status})` : ""}; the app's own records have the details`,
  );
  safe.name = "ExtractionAttemptFailed";
  safe.stack = `${safe.name}: ${safe.message}`;
  return safe;
}

import { z } from "zod";

/**
 * Every event a webhook can subscribe to (docs/api.md). The list is the one place to extend: a new kind of write
 * (proposals, say) adds its names here and records them through ./outbox.ts like the others.
 */
export const WEBHOOK_EVENT_TYPES = [
  "memory.created",
  "memory.updated",
  "memory.deleted",
  "memory.restored",
  "memory.purged",
  "extraction.run.completed",
  "proposal.created",
  "proposal.approved",
  "proposal.rejected",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES, {
  error: (issue) => `Unknown event type ${JSON.stringify(issue.input)}; one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
});

/** The memory op (memory_versions.op) each memory event reports. */
export const MEMORY_OP_EVENTS = {
  create: "memory.created",
  update: "memory.updated",
  delete: "memory.deleted",
  restore: "memory.restored",
  purge: "memory.purged",
} as const satisfies Record<string, WebhookEventType>;

/** One event as recorded by a write, before it fans out to the endpoints that subscribe to its type. */
export interface WebhookEvent {
  type: WebhookEventType;
  /** The memory it concerns, so a purge can reduce its earlier payloads to ids. */
  memoryId?: string;
  data: Record<string, unknown>;
  at: Date;
}

/** The body every delivery sends: the Standard Webhooks envelope. */
export function envelope(event: WebhookEvent): Record<string, unknown> {
  return { type: event.type, timestamp: event.at.toISOString(), data: event.data };
}

/**
 * A finished extraction run (succeeded, or failed for good) as an event: ids and counts only. Its ops hold the
 * user's words and its error may quote a provider's answer, so a purge has nothing to erase here.
 */
export function runCompletedEvent(
  run: { runId: string; threadId: string; status: "succeeded" | "failed"; applied?: number; rejected?: number },
  at: Date,
): WebhookEvent {
  const counts = run.applied === undefined ? {} : { applied: run.applied, rejected: run.rejected ?? 0 };
  return {
    type: "extraction.run.completed",
    data: { runId: run.runId, threadId: run.threadId, status: run.status, ...counts },
    at,
  };
}

/**
 * A proposal made or decided, as an event: ids only. Its content is the user's words, which a purge must be able to
 * erase; the receiver reads the proposal itself (GET /api/v1/proposals) while it exists.
 */
export function proposalEvent(
  type: "proposal.created" | "proposal.approved" | "proposal.rejected",
  proposal: { id: string; op: string; memoryId: string | null; status: string },
  at: Date,
): WebhookEvent {
  return {
    type,
    ...(proposal.memoryId ? { memoryId: proposal.memoryId } : {}),
    data: { id: proposal.id, op: proposal.op, memoryId: proposal.memoryId, status: proposal.status },
    at,
  };
}

/** What a purged memory's deliveries keep: ids and numbers, never its content. */
export function purgedMemoryData(memoryId: string, version?: number): Record<string, unknown> {
  return version === undefined ? { id: memoryId, purged: true } : { id: memoryId, version, purged: true };
}

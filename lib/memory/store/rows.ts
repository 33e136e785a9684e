// A memory's row read into the shape the core returns, and the small rules every write of one keeps.

import type { memories, memoryVersions } from "@/lib/db/schema";
import { ValidationError } from "@/lib/errors";
import { type Actor, defaultKinds, type KindRegistry, type MemoryContext, relativeNamespace } from "@/lib/memory/core";
import type { Memory, MemoryVersion } from "./types";

export type MemoryRow = typeof memories.$inferSelect;
export type VersionRow = typeof memoryVersions.$inferSelect;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const kindsOf = (ctx: MemoryContext): KindRegistry => ctx.kinds ?? defaultKinds;

/** A fact cannot stop holding before it started. */
export function checkValidity(validFrom: Date | null, validTo: Date | null): void {
  if (validFrom && validTo && validTo.getTime() < validFrom.getTime()) {
    throw new ValidationError("Invalid input: validTo: is before validFrom.", [
      { path: ["validTo"], message: "is before validFrom" },
    ]);
  }
}

/**
 * A write's source as the API shows it. Deleting a chat erases the message id and quote of what came from it
 * (eraseThreadWords in ./purge-copies.ts); a chat or extraction source left with only the thread says so.
 */
function source(row: Pick<MemoryRow, "sourceType" | "threadId" | "messageId" | "quote" | "runId">) {
  const fromChat = row.sourceType === "chat" || row.sourceType === "extraction";
  return {
    type: row.sourceType as Memory["source"]["type"],
    ...(row.threadId ? { threadId: row.threadId } : {}),
    ...(fromChat && row.threadId && !row.messageId && !row.quote ? { threadDeleted: true as const } : {}),
    ...(row.messageId ? { messageId: row.messageId } : {}),
    ...(row.quote ? { quote: row.quote } : {}),
    ...(row.runId ? { runId: row.runId } : {}),
  };
}

export function toMemory(ctx: MemoryContext, row: MemoryRow): Memory {
  return {
    id: row.id,
    namespace: relativeNamespace(ctx.principal.root, row.namespace),
    key: row.key,
    kind: row.kind,
    content: row.content ?? null,
    text: row.text ?? "",
    status: row.status,
    version: row.version,
    metadata: row.metadata,
    pinned: row.pinned,
    validFrom: row.validFrom,
    validTo: row.validTo,
    mergedInto: row.mergedInto,
    mergedFrom: row.mergedFrom,
    support: 1 + row.mergedFrom.length,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    source: source(row),
    actor: { type: row.actorType as Actor["type"], id: row.actorId },
    contentHash: row.contentHash,
    purgedAt: row.purgedAt,
  };
}

export function toVersion(row: VersionRow): MemoryVersion {
  return {
    memoryId: row.memoryId,
    version: row.version,
    op: row.op,
    kind: row.kind,
    content: row.content ?? null,
    text: row.text ?? "",
    status: row.status,
    metadata: row.metadata,
    pinned: row.pinned,
    validFrom: row.validFrom,
    validTo: row.validTo,
    mergedInto: row.mergedInto,
    mergedFrom: row.mergedFrom,
    actor: { type: row.actorType as Actor["type"], id: row.actorId },
    reason: row.reason,
    source: source(row),
    contentHash: row.contentHash,
    createdAt: row.createdAt,
  };
}

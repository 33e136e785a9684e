import type { Actor, SourceType } from "./context";

export type MemoryStatus = "active" | "deleted";
export type MemoryOp = "create" | "update" | "delete" | "restore" | "purge";

export interface MemorySource {
  type: SourceType;
  threadId?: string;
  messageId?: string;
  quote?: string;
  runId?: string;
}

/** A memory as the core returns it: namespace relative to the caller's root. `content` is null once purged. */
export interface Memory {
  id: string;
  namespace: string[];
  key: string;
  kind: string;
  content: unknown;
  text: string;
  status: MemoryStatus;
  version: number;
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  /** Provenance and writer of the current content. */
  source: MemorySource;
  actor: Actor;
  contentHash: string;
  purgedAt: Date | null;
}

export interface MemoryVersion {
  memoryId: string;
  version: number;
  op: MemoryOp;
  kind: string;
  content: unknown;
  text: string;
  status: MemoryStatus;
  metadata: Record<string, unknown>;
  actor: Actor;
  reason: string | null;
  source: MemorySource;
  contentHash: string;
  createdAt: Date;
}

export interface SearchResult {
  memory: Memory;
  score: number;
}

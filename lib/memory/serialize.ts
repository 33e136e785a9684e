import type { Actor } from "./context";
import type { Memory, MemorySource, MemoryVersion, SearchResult } from "./types";

/** The memory JSON of the HTTP contract (DESIGN §7). */
export interface MemoryJson {
  id: string;
  namespace: string[];
  key: string;
  kind: string;
  content: unknown;
  text: string;
  status: Memory["status"];
  version: number;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  source: MemorySource;
  actor: Actor;
}

export function serializeMemory(memory: Memory): MemoryJson {
  return {
    id: memory.id,
    namespace: memory.namespace,
    key: memory.key,
    kind: memory.kind,
    content: memory.content,
    text: memory.text,
    status: memory.status,
    version: memory.version,
    metadata: memory.metadata,
    createdAt: memory.createdAt.toISOString(),
    updatedAt: memory.updatedAt.toISOString(),
    source: memory.source,
    actor: memory.actor,
  };
}

export interface MemoryVersionJson {
  version: number;
  op: MemoryVersion["op"];
  kind: string;
  content: unknown;
  text: string;
  status: MemoryVersion["status"];
  metadata: Record<string, unknown>;
  actor: Actor;
  reason: string | null;
  source: MemorySource;
  createdAt: string;
}

export function serializeVersion(version: MemoryVersion): MemoryVersionJson {
  return {
    version: version.version,
    op: version.op,
    kind: version.kind,
    content: version.content,
    text: version.text,
    status: version.status,
    metadata: version.metadata,
    actor: version.actor,
    reason: version.reason,
    source: version.source,
    createdAt: version.createdAt.toISOString(),
  };
}

export function serializeSearchResult(result: SearchResult): { memory: MemoryJson; score: number } {
  return { memory: serializeMemory(result.memory), score: result.score };
}

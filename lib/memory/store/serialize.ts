import type { MemoryJson, MemoryVersionJson, SearchResultJson } from "@/lib/memory/contract";
import type { Memory, MemoryVersion, SearchResult } from "./types";

/** The memory JSON of the HTTP contract (docs/api.md), as lib/memory/contract/shapes.ts defines it. */
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
    pinned: memory.pinned,
    validFrom: memory.validFrom?.toISOString() ?? null,
    validTo: memory.validTo?.toISOString() ?? null,
    mergedInto: memory.mergedInto,
    mergedFrom: memory.mergedFrom,
    support: memory.support,
    createdAt: memory.createdAt.toISOString(),
    updatedAt: memory.updatedAt.toISOString(),
    source: memory.source,
    actor: memory.actor,
  };
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
    pinned: version.pinned,
    validFrom: version.validFrom?.toISOString() ?? null,
    validTo: version.validTo?.toISOString() ?? null,
    actor: version.actor,
    reason: version.reason,
    source: version.source,
    createdAt: version.createdAt.toISOString(),
  };
}

export function serializeSearchResult(result: SearchResult): SearchResultJson {
  return {
    memory: serializeMemory(result.memory),
    score: result.score,
    ...(result.lexical === undefined ? {} : { lexical: result.lexical }),
    ...(result.vector === undefined ? {} : { vector: result.vector }),
    confidence: result.confidence,
  };
}

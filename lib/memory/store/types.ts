import type { MEMORY_OPS, MEMORY_STATUSES, MemoryJson, MemoryVersionJson } from "@/lib/memory/contract";

export type MemoryStatus = (typeof MEMORY_STATUSES)[number];
export type MemoryOp = (typeof MEMORY_OPS)[number];
export type MemorySource = MemoryJson["source"];

/**
 * A memory as the core returns it: the JSON shape (lib/memory/contract/shapes.ts) with dates as Dates, plus what only
 * the server needs. Namespace relative to the caller's root; `content` is null once purged.
 */
export interface Memory extends Omit<MemoryJson, "createdAt" | "updatedAt" | "validFrom" | "validTo"> {
  validFrom: Date | null;
  validTo: Date | null;
  createdAt: Date;
  updatedAt: Date;
  contentHash: string;
  purgedAt: Date | null;
}

export interface MemoryVersion extends Omit<MemoryVersionJson, "createdAt" | "validFrom" | "validTo"> {
  memoryId: string;
  mergedInto: string | null;
  mergedFrom: string[];
  validFrom: Date | null;
  validTo: Date | null;
  createdAt: Date;
  contentHash: string;
}

export interface SearchResult {
  memory: Memory;
  /** Relevance in [0, 1], comparable within one result list. */
  score: number;
  /** The lexical leg's score in [0, 1], when it ran. */
  lexical?: number;
  /** The vector leg's score (cosine similarity, floored at 0), when it ran. */
  vector?: number;
}

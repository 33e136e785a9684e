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

/**
 * What a hit's confidence is read from (lib/memory/search/confidence.ts), all computed by the search's own statements:
 * - `lexical`: the lexical leg's score (BM25 share of the query);
 * - `coverage`: the share of the query's words, each weighed by its rarity among the user's memories, that the memory
 *   holds, a word held only through an expansion (a typo's correction, a related noun) at that expansion's weight;
 * - `exact`: the same share counting only the query's own words (and their irregular forms);
 * - `cosine`: the vector leg's similarity, and `standing`: how far it stands above this query's similarities to every
 *   memory scanned (a z-score), when the vector leg ran.
 */
export interface ConfidenceSignals {
  lexical: number;
  coverage: number;
  exact: number;
  /** How many memories the search judged the query against (the user's corpus, or the vector leg's scan). */
  memories: number;
  cosine?: number;
  standing?: number;
}

export interface SearchResult {
  memory: Memory;
  /** Relevance in [0, 1], comparable within one result list. */
  score: number;
  /** The lexical leg's score in [0, 1], when it ran. */
  lexical?: number;
  /** The vector leg's score (cosine similarity, floored at 0), when it ran. */
  vector?: number;
  /**
   * How likely the memory answers the query, in [0, 1], comparable across queries (unlike `score`): at or above
   * LIMITS.confidenceFloor a hit is confident (lib/memory/search/confidence.ts).
   */
  confidence: number;
  /** What `confidence` was read from; kept for the bench's tuning, never serialized. */
  signals?: ConfidenceSignals;
}

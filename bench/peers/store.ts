import type { GeneratedMemory, GeneratedUser } from "../data/generator";
import type { EmbeddingMeter } from "../embedding";

/** What every contender offers the benchmark, on the same generated data. */
export interface BenchStore {
  readonly name: string;
  /** Where it runs and how it searches, printed next to its figures. */
  readonly detail: string;
  load(user: GeneratedUser): Promise<void>;
  /** Keys of the best `limit` matches among `user`'s memories, as the store scopes them. */
  search(user: string, query: string, limit: number): Promise<string[]>;
  insertOne(user: string, memory: GeneratedMemory): Promise<void>;
  insertBatch(user: string, memories: readonly GeneratedMemory[]): Promise<void>;
  /**
   * The same search with each hit's confidence in [0, 1] and the floor at or above which the store calls a hit
   * confident, where the store has one (Memory Ledger): the recall suite then counts what is above the floor.
   */
  searchWithConfidence?(
    user: string,
    query: string,
    limit: number,
  ): Promise<{ hits: Array<{ key: string; confidence: number }>; floor: number }>;
  /** The query plan of one search, where the store's query is ours to show. */
  explain?(user: string, query: string): Promise<string>;
  /** How it ranks, for the recall tables: a search mode ("lexical", "vector", "hybrid") or a method ("BM25"). */
  readonly ranking?: string;
  /** Present when the store embeds: the time its embedding model spent on memories and on queries. */
  readonly embedding?: EmbeddingMeter;
  /**
   * Hybrid search with the vector leg weighted `weight` in [0, 1] (0 lexical only, 1 vector only). Optional: where a
   * store has it, the recall suite prints recall@10 for each of `--weights`.
   */
  searchWithWeight?(user: string, query: string, limit: number, weight: number): Promise<string[]>;
  /** False for stores whose ingest rate would measure nothing real (an in-process index rebuilt by the next search). */
  readonly ingest?: boolean;
  close(): Promise<void>;
}

/** How LangMem-style code stores a memory in a LangGraph store: the kind plus its structured content. */
export const langGraphValue = (memory: GeneratedMemory) => ({ kind: memory.kind, content: memory.content });

export const LOAD_CHUNK = 1_000;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );
}

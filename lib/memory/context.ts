import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import type { Database } from "@/lib/db/client";
import type { KindRegistry } from "./kinds";

export type ActorType = "user" | "agent" | "extractor" | "api" | "admin";

/** Who performed a write: a kind of writer plus its id (user id, model id, extraction run, API key id, …). */
export interface Actor {
  type: ActorType;
  id: string;
}

/** Where a memory's content came from. */
export type SourceType = "chat" | "extraction" | "console" | "api";

/** Evidence for a write: the conversation span that supports it, or the extraction run that proposed it. */
export interface Provenance {
  source?: SourceType;
  threadId?: string;
  messageId?: string;
  /** The exact span of the source message that supports the memory. */
  quote?: string;
  runId?: string;
}

/** The part of a principal the core needs: whose rows (`userId`) and under which namespace root. */
export interface MemoryPrincipal {
  userId: string;
  root: readonly string[];
}

/**
 * Everything the memory core needs from its caller. Each surface (chat, extraction, REST, MCP, tests) builds one;
 * the core reads no environment and picks no provider.
 */
export interface MemoryContext {
  database: Database;
  principal: MemoryPrincipal;
  actor: Actor;
  clock: () => Date;
  /** Enables vector search and embedding on write (only where the database has pgvector). */
  embeddingModel?: EmbeddingModelV4;
  /** Defaults for every write made with this context; a write's own provenance overrides field by field. */
  provenance?: Provenance;
  /** Content kinds; the built-ins when absent. */
  kinds?: KindRegistry;
  /**
   * Embedding runs after the write commits, so a failing embedding provider never loses a memory; the failure is
   * reported here (default: a console warning) and lexical search still finds the memory.
   */
  onEmbeddingError?: (error: unknown) => void;
}

const DEFAULT_SOURCE: Record<ActorType, SourceType> = {
  user: "console",
  admin: "console",
  agent: "chat",
  extractor: "extraction",
  api: "api",
};

export function sourceTypeFor(actor: Actor, provenance: Provenance): SourceType {
  return provenance.source ?? DEFAULT_SOURCE[actor.type];
}

export const systemClock = (): Date => new Date();

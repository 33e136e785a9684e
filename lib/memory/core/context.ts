import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import type { Database } from "@/lib/db/client";
import { asUser, type UnitOfWork, type UserBinding } from "@/lib/db/unit-of-work";
import type { ActorType, SourceType } from "@/lib/memory/contract";
import type { ScheduleWebhookDeliveries } from "@/lib/memory/webhooks";
import type { KindRegistry } from "./kinds";

/** Who performed a write: a kind of writer plus its id (user id, model id, extraction run, API key id, …). */
export interface Actor {
  type: ActorType;
  id: string;
}

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
 * Everything the memory core needs from its caller: the app builds it in one place (lib/server/memory-context.ts),
 * the core's tests build their own; the core reads no environment and picks no provider.
 */
export interface MemoryContext extends UserBinding {
  database: Database;
  principal: MemoryPrincipal;
  /** The unit of work this context's calls join; absent, each call runs in its own. */
  unit?: UnitOfWork;
  actor: Actor;
  clock: () => Date;
  /** Enables vector search, and is the model the embedding job uses (only where the database has pgvector). */
  embeddingModel?: EmbeddingModelV4;
  /**
   * Asks for the user's missing vectors to be computed, called after a write that needs them commits: a queued job
   * in the app (never the request, never the write's transaction). Without it, writes leave vectors to a later sweep.
   */
  scheduleEmbedding?: (userId: string) => Promise<void>;
  /**
   * Hands the webhook deliveries a write recorded to the queue, called once the write commits (never inside it,
   * never on the request path). Without it, they wait for the worker's sweep of overdue deliveries.
   */
  scheduleWebhookDeliveries?: ScheduleWebhookDeliveries;
  /**
   * Asks for a (debounced) optimizer pass over the user's new feedback, once the feedback commits
   * (docs/memory-model.md).
   */
  scheduleOptimizer?: (userId: string) => Promise<void>;
  /** Query vectors already computed for this unit of work (a chat turn): recall and the search tool share them. */
  queryEmbeddings?: Map<string, Promise<number[] | undefined>>;
  /** Defaults for every write made with this context; a write's own provenance overrides field by field. */
  provenance?: Provenance;
  /**
   * The most active memories the user may hold: a write that would take them past it is refused whole, before it
   * writes anything (QuotaExceededError). Absent, no limit (tests of the core; every surface of the app sets it).
   */
  memoryQuota?: number;
  /** Content kinds; the built-ins when absent. */
  kinds?: KindRegistry;
}

/**
 * Runs several calls as one unit of work: the context handed to `work` carries the open unit, so every core call
 * made with it joins the same transaction (and its after-commit work runs once that commits).
 */
export function withUnit<C extends MemoryContext, T>(ctx: C, work: (ctx: C) => Promise<T>): Promise<T> {
  return asUser(ctx, (unit) => work({ ...ctx, unit }));
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

/** Whether this context can embed: a model was given and the database has pgvector. */
export function canEmbed(ctx: MemoryContext): ctx is MemoryContext & { embeddingModel: EmbeddingModelV4 } {
  return ctx.embeddingModel !== undefined && ctx.database.vector;
}

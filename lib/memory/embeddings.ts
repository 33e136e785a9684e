import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { embed, embedMany } from "ai";
import { sql } from "drizzle-orm";
import { asUserDatabase } from "@/lib/db/principal";
import { logFailure } from "@/lib/log";
import type { MemoryContext } from "./context";
import { ownedUnder } from "./filters";

/** The identity rows are stored under; a different model gets its own rows. */
export function embeddingModelKey(model: EmbeddingModelV4): string {
  return `${model.provider}:${model.modelId}`;
}

/** Whether this context can embed: a model was given and the database has pgvector. */
export function canEmbed(ctx: MemoryContext): ctx is MemoryContext & { embeddingModel: EmbeddingModelV4 } {
  return ctx.embeddingModel !== undefined && ctx.database.vector;
}

export interface EmbeddingTarget {
  id: string;
  text: string;
  contentHash: string;
}

export const vectorLiteral = (embedding: readonly number[]) => `[${embedding.join(",")}]`;

/**
 * Embeds memories (one call for many, via embedMany) and stores the vectors. A row is written only while the memory
 * still has the hash that was embedded, so a slow embedding never overwrites the vector of a newer write.
 */
export async function embedMemories(ctx: MemoryContext, targets: readonly EmbeddingTarget[]): Promise<void> {
  if (!canEmbed(ctx)) return;
  const embeddable = targets.filter((target) => target.text.length > 0);
  if (embeddable.length === 0) return;
  const values = embeddable.map((target) => target.text);
  const embeddings =
    values.length === 1
      ? [(await embed({ model: ctx.embeddingModel, value: values[0] as string })).embedding]
      : (await embedMany({ model: ctx.embeddingModel, values })).embeddings;
  const model = embeddingModelKey(ctx.embeddingModel);
  await asUserDatabase(ctx.database, ctx.principal.userId, async (tx) => {
    for (const [index, target] of embeddable.entries()) {
      await tx.rows(sql`
      insert into memory_embeddings (user_id, memory_id, model, embedding, content_hash)
      select m.user_id, m.id, ${model}, ${vectorLiteral(embeddings[index] as number[])}::text::vector, m.content_hash
      from memories m
      where m.user_id = ${ctx.principal.userId}::uuid and m.id = ${target.id}::uuid
        and m.content_hash = ${target.contentHash}
      on conflict (user_id, memory_id, model)
      do update set embedding = excluded.embedding, content_hash = excluded.content_hash, created_at = now()`);
    }
  });
}

/** Runs after a write has committed: a failure is reported, never turned into a failed write. */
export async function embedAfterWrite(ctx: MemoryContext, targets: readonly EmbeddingTarget[]): Promise<void> {
  try {
    await embedMemories(ctx, targets);
  } catch (error) {
    reportEmbeddingError(ctx, error);
  }
}

export function reportEmbeddingError(ctx: MemoryContext, error: unknown): void {
  if (ctx.onEmbeddingError) ctx.onEmbeddingError(error);
  else logFailure("memory embedding failed; lexical search still covers the memory", error, "warn");
}

/** The query vector, or undefined when this context cannot embed or the provider fails (search stays lexical). */
export async function embedQuery(ctx: MemoryContext, query: string): Promise<number[] | undefined> {
  if (!canEmbed(ctx)) return undefined;
  try {
    return (await embed({ model: ctx.embeddingModel, value: query })).embedding;
  } catch (error) {
    reportEmbeddingError(ctx, error);
    return undefined;
  }
}

/**
 * Embeds the caller's active memories that have no current vector for the context's model (new model, failed
 * embedding, content changed). Returns how many were embedded; call repeatedly until it returns 0.
 */
export async function embedMissing(ctx: MemoryContext, options: { batchSize?: number } = {}): Promise<number> {
  if (!canEmbed(ctx)) return 0;
  const model = embeddingModelKey(ctx.embeddingModel);
  const targets = await asUserDatabase(ctx.database, ctx.principal.userId, (tx) =>
    tx.rows<EmbeddingTarget>(sql`
    select memories.id, memories.text, memories.content_hash as "contentHash"
    from memories
    where ${ownedUnder(ctx)} and memories.status = 'active' and memories.text <> ''
      and not exists (
        select 1 from memory_embeddings e
        where e.user_id = memories.user_id and e.memory_id = memories.id and e.model = ${model}
          and e.content_hash = memories.content_hash)
    order by memories.updated_at desc
    limit ${options.batchSize ?? 100}`),
  );
  await embedMemories(ctx, targets);
  return targets.length;
}

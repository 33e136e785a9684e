import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { embed, embedMany } from "ai";
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { asUser } from "@/lib/db/unit-of-work";
import { logFailure } from "@/lib/log";
import { canEmbed, type MemoryContext, textArray } from "@/lib/memory/core";
import { ownedUnder } from "@/lib/memory/store";
import { inSpan, modelTelemetry } from "@/lib/telemetry";
import { trimEnd } from "@/lib/text/trim";

/** The identity rows are stored under; a different model gets its own rows. */
export function embeddingModelKey(model: EmbeddingModelV4): string {
  return `${model.provider}:${model.modelId}`;
}

export interface EmbeddingTarget {
  id: string;
  text: string;
  contentHash: string;
}

export const vectorLiteral = (embedding: readonly number[]) => `[${embedding.join(",")}]`;

/** Memories of the user whose active text has no vector for `model` (new memory, changed text, new model). */
const missingVector = (model: string) => sql`
  memories.status = 'active' and btrim(coalesce(memories.text, '')) <> ''
  and not exists (
    select 1 from memory_embeddings e
    where e.user_id = memories.user_id and e.memory_id = memories.id and e.model = ${model}
      and e.content_hash = memories.content_hash)`;

/**
 * Embeds a batch of the caller's memories that have no current vector for the context's model, newest first, in one
 * provider call, and stores the vectors. A vector is written only while the memory still has the hash that was
 * embedded, so a slow embedding never overwrites the vector of a newer write. Returns how many were embedded; the
 * embedding job calls it until it returns 0.
 */
export async function embedMissing(ctx: MemoryContext, options: { batchSize?: number } = {}): Promise<number> {
  if (!canEmbed(ctx)) return 0;
  const model = embeddingModelKey(ctx.embeddingModel);
  const targets = await asUser(ctx, (unit) =>
    unit.rows<EmbeddingTarget>(sql`
      select memories.id, memories.text, memories.content_hash as "contentHash"
      from memories
      where ${ownedUnder(ctx)} and ${missingVector(model)}
      order by memories.updated_at desc, memories.id
      limit ${options.batchSize ?? 64}`),
  );
  if (targets.length === 0) return 0;
  const { embeddings } = await inSpan(
    "embedding batch",
    { "embedding.model": model, "embedding.count": targets.length },
    () =>
      embedMany({
        model: ctx.embeddingModel,
        values: targets.map((target) => target.text),
        telemetry: modelTelemetry("embedding"),
      }),
  );
  await asUser(ctx, (unit) =>
    unit.rows(sql`
      insert into memory_embeddings (user_id, memory_id, model, embedding, content_hash)
      select m.user_id, m.id, ${model}, v.embedding::vector, m.content_hash
      from unnest(
        ${textArray(targets.map((target) => target.id))},
        ${textArray(embeddings.map((embedding) => vectorLiteral(embedding)))},
        ${textArray(targets.map((target) => target.contentHash))}) as v(id, embedding, content_hash)
      join memories m
        on m.user_id = ${ctx.principal.userId}::uuid and m.id = v.id::uuid and m.content_hash = v.content_hash
      on conflict (user_id, memory_id, model)
      do update set embedding = excluded.embedding, content_hash = excluded.content_hash, created_at = now()`),
  );
  return targets.length;
}

/** How many of the caller's memories still wait for a vector for the context's model (0 when it cannot embed). */
export async function embeddingBacklog(ctx: MemoryContext): Promise<number> {
  if (!canEmbed(ctx)) return 0;
  const model = embeddingModelKey(ctx.embeddingModel);
  const [row] = await asUser(ctx, (unit) =>
    unit.rows<{ n: number }>(sql`
      select count(*)::int as n from memories where ${ownedUnder(ctx)} and ${missingVector(model)}`),
  );
  return row?.n ?? 0;
}

/**
 * Across all users (unbound: the worker's sweep on start, after a model change or on existing data): who has
 * memories waiting for a vector for `model`, and how many wait in all, counting at most `cap`.
 */
export async function embeddingBacklogAcrossUsers(
  database: Database,
  model: EmbeddingModelV4,
  cap = 100_000,
): Promise<{ users: string[]; pending: number }> {
  if (!database.vector) return { users: [], pending: 0 };
  const key = embeddingModelKey(model);
  const rows = await database.unbound.rows<{ user_id: string; n: number }>(sql`
    select user_id::text, count(*)::int as n
    from (select memories.user_id from memories where ${missingVector(key)} limit ${cap}) waiting
    group by user_id`);
  return { users: rows.map((row) => row.user_id), pending: rows.reduce((sum, row) => sum + row.n, 0) };
}

/**
 * The query's vector, or undefined when this context cannot embed or the provider fails (search stays lexical). A
 * context that carries `queryEmbeddings` (a chat turn) embeds each text once, however many searches ask for it.
 */
export function embedQuery(ctx: MemoryContext, query: string): Promise<number[] | undefined> {
  if (!canEmbed(ctx)) return Promise.resolve(undefined);
  // Recall asks with the message, the search tool often with the same words less the question mark.
  const key = trimEnd(query.trim(), "?.!").toLowerCase();
  const cached = ctx.queryEmbeddings?.get(key);
  if (cached) return cached;
  // The local encoder (lib/ai/local-embedding.ts) embeds a query in a thread of its own, never behind memories; other
  // providers ignore options keyed to another provider.
  const vector = embed({
    model: ctx.embeddingModel,
    value: query,
    providerOptions: { local: { purpose: "query" } },
    telemetry: modelTelemetry("embedding-query"),
  }).then(
    (result) => result.embedding,
    (error: unknown) => {
      logFailure("query embedding failed; this search is lexical only", error, "warn");
      return undefined;
    },
  );
  ctx.queryEmbeddings?.set(key, vector);
  return vector;
}

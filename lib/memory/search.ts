import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { memories } from "@/lib/db/schema";
import type { MemoryContext } from "./context";
import { embeddingModelKey, embedQuery, vectorLiteral } from "./embeddings";
import { filterConditions, memoryFiltersSchema } from "./filters";
import { parseInput } from "./parse";
import { toMemory } from "./store";
import type { SearchResult } from "./types";

/** Reciprocal-rank fusion constant: damps the advantage of the very top ranks (60 is the usual choice). */
const RRF_K = 60;
/** Minimum pg_trgm word similarity of one query term for a typo match ("dakr" ~ "dark" scores 0.4). */
const TRIGRAM_THRESHOLD = 0.35;

export const searchMemoriesInputSchema = memoryFiltersSchema.extend({
  query: z.string().trim().min(1).max(2_000),
  limit: z.number().int().min(1).max(100).default(10),
});
export type SearchMemoriesInput = z.input<typeof searchMemoriesInputSchema>;

/**
 * Hybrid search over the caller's memories. Lexical always: full-text with the query's terms OR-ed (a question
 * rarely shares every word with the answer) and trigram word similarity per term (typos). Vector too when the
 * context has an embedding model and the database has pgvector. The ranked lists are fused with RRF.
 */
export async function searchMemories(ctx: MemoryContext, raw: SearchMemoriesInput): Promise<SearchResult[]> {
  const { query, limit, ...filters } = parseInput(searchMemoriesInputSchema, raw);
  const candidates = Math.max(limit * 5, 50);
  const queryVector = await embedQuery(ctx, query);
  const rankings: SQL[] = [fullTextRanking(query, candidates), trigramRanking(query, candidates)];
  if (queryVector && ctx.embeddingModel) {
    rankings.push(vectorRanking(ctx.principal.userId, embeddingModelKey(ctx.embeddingModel), queryVector, candidates));
  }
  const scored = await ctx.database.rows<{ id: string; score: number | string }>(sql`
    with scoped as (
      select ${memories.id} as id, ${memories.text} as text, ${memories.fts} as fts,
             ${memories.contentHash} as content_hash
      from ${memories}
      where ${filterConditions(ctx, filters)}
    ),
    ranked as (${sql.join(rankings, sql` union all `)})
    select id, sum(1.0 / (${RRF_K} + rank))::float8 as score
    from ranked
    group by id
    order by score desc, id
    limit ${limit}`);
  if (scored.length === 0) return [];
  const rows = await ctx.database.db
    .select()
    .from(memories)
    .where(
      and(
        eq(memories.userId, ctx.principal.userId),
        inArray(
          memories.id,
          scored.map((row) => row.id),
        ),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return scored.flatMap(({ id, score }) => {
    const row = byId.get(id);
    return row ? [{ memory: toMemory(ctx, row), score: Number(score) }] : [];
  });
}

/** plainto_tsquery normalises and stems; its `&`s become `|` so any matching term counts, more terms rank higher. */
function fullTextRanking(query: string, candidates: number): SQL {
  return sql`(
    select s.id, row_number() over (order by ts_rank_cd(s.fts, q.tsq) desc, s.id) as rank
    from scoped s,
         (select replace(plainto_tsquery('english', ${query})::text, '&', '|')::tsquery as tsq) q
    where s.fts @@ q.tsq
    order by rank
    limit ${candidates})`;
}

/**
 * Typo tolerance: a memory qualifies when some query word (stop words and words under 3 letters dropped) is
 * word-similar to its text; it ranks by the summed strict word similarity of those words, which prefers whole-word
 * near-misses ("dakr" → "dark" over "daughter") and memories matching more of the words.
 */
function trigramRanking(query: string, candidates: number): SQL {
  return sql`(
    select id, row_number() over (order by similarity desc, id) as rank
    from (
      select s.id, sum(strict_word_similarity(t.word, s.text)) as similarity
      from scoped s
      cross join (
        select word from unnest(tsvector_to_array(to_tsvector('simple', ${query}))) as word
        where length(word) >= 3 and length(to_tsvector('english', word)) > 0
      ) t
      where word_similarity(t.word, s.text) >= ${TRIGRAM_THRESHOLD}
      group by s.id
    ) matches
    order by rank
    limit ${candidates})`;
}

/** Exact cosine-distance scan over the caller's scoped rows with a current vector for this model. */
function vectorRanking(userId: string, model: string, vector: number[], candidates: number): SQL {
  return sql`(
    select s.id, row_number() over (order by e.embedding <=> ${vectorLiteral(vector)}::text::vector, s.id) as rank
    from scoped s
    join memory_embeddings e
      on e.user_id = ${userId}::uuid and e.memory_id = s.id and e.model = ${model}
     and e.content_hash = s.content_hash
    where vector_dims(e.embedding) = ${vector.length}
    order by rank
    limit ${candidates})`;
}

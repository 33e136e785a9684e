import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/lib/db/client";
import { asUserDatabase } from "@/lib/db/principal";
import { memories } from "@/lib/db/schema";
import type { MemoryContext } from "./context";
import { embeddingModelKey, embedQuery, vectorLiteral } from "./embeddings";
import { filterConditions, memoryFiltersSchema } from "./filters";
import { parseInput } from "./parse";
import { toMemory } from "./store";
import type { SearchResult } from "./types";

/** Reciprocal-rank fusion constant: damps the advantage of the very top ranks (60 is the usual choice). */
const RRF_K = 60;
/** Minimum pg_trgm word similarity between a misspelt word and a vocabulary word ("dakr" ~ "dark" scores 0.4). */
const TYPO_THRESHOLD = 0.35;
/** Closest vocabulary words tried in place of one misspelt query word (more would drown it in near-misses). */
const SPELLINGS_PER_WORD = 1;
/** Misspelt words corrected per query: a long pasted paragraph should not fan out into dozens of lookups. */
const MAX_TYPOS = 6;
/** Full-text terms per query: a whole pasted message still ranks by a bounded number of per-row lexeme checks. */
const MAX_TERMS = 32;

export const searchMemoriesInputSchema = memoryFiltersSchema.extend({
  query: z.string().trim().min(1).max(2_000),
  limit: z.number().int().min(1).max(100).default(10),
});
export type SearchMemoriesInput = z.input<typeof searchMemoriesInputSchema>;

/**
 * Hybrid search over the caller's memories. Lexical always: full-text with the query's terms OR-ed (a question
 * rarely shares every word with the answer), where a query word the caller never wrote (a typo, usually) also brings
 * in the closest words of their vocabulary. Vector too when the context has an embedding model and the database has
 * pgvector; the ranked lists are fused with RRF. Each leg reads through an index that leads with the user
 * (full-text GIN, the vocabulary's trigram GIN, the embeddings' key), so cost follows the matches, not the table.
 */
export async function searchMemories(ctx: MemoryContext, raw: SearchMemoriesInput): Promise<SearchResult[]> {
  const { query, limit, ...filters } = parseInput(searchMemoriesInputSchema, raw);
  const candidates = Math.max(limit * 5, 50);
  const queryVector = await embedQuery(ctx, query);
  const scope = filterConditions(ctx, filters);
  const typoThreshold = { "pg_trgm.word_similarity_threshold": String(TYPO_THRESHOLD) };
  return asUserDatabase(
    ctx.database,
    ctx.principal.userId,
    async (tx) => {
      const terms = await queryTerms(tx, ctx.principal.userId, query);
      const rankings: SQL[] = terms.length > 0 ? [fullTextRanking(scope, terms, candidates)] : [];
      if (queryVector && ctx.embeddingModel) {
        const model = embeddingModelKey(ctx.embeddingModel);
        rankings.push(vectorRanking(scope, ctx.principal.userId, model, queryVector, candidates));
      }
      // A query of stop words only, with no vector to fall back on.
      if (rankings.length === 0) return [];
      const scored = await tx.rows<{ id: string; score: number | string }>(sql`
        select id, sum(1.0 / (${RRF_K} + rank))::float8 as score
        from (${sql.join(rankings, sql` union all `)}) ranked
        group by id
        order by score desc, id
        limit ${limit}`);
      if (scored.length === 0) return [];
      const rows = await tx.db
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
    },
    typoThreshold,
  );
}

/**
 * The query's full-text terms (stemmed, stop words dropped, at most MAX_TERMS): its own, plus, for each content
 * word (3+ letters) absent from the user's vocabulary, the vocabulary word it is most word-similar to (`<%`, at the
 * threshold the caller set for this transaction).
 */
async function queryTerms(tx: Database, userId: string, query: string): Promise<string[]> {
  const [row] = await tx.rows<{ terms: string[] | null }>(sql`
    with spellings as (
      select coalesce(string_agg(near.term, ' '), '') as words
      from (
        select word
        from unnest(tsvector_to_array(to_tsvector('simple', ${query}))) as word
        where length(word) between 3 and 40 and length(to_tsvector('english', word)) > 0
          and not exists (select 1 from memory_terms k where k.user_id = ${userId}::uuid and k.term = word)
        order by length(word) desc, word
        limit ${MAX_TYPOS}
      ) typo
      cross join lateral (
        select v.term
        from memory_terms v
        where v.user_id = ${userId}::uuid and typo.word <% v.term
        order by similarity(typo.word, v.term) desc, v.term
        limit ${SPELLINGS_PER_WORD}
      ) near
    )
    select array(
             select term
             from spellings, unnest(tsvector_to_array(to_tsvector('english', ${query} || ' ' || spellings.words))) as term
             limit ${MAX_TERMS}
           ) as terms`);
  return row?.terms ?? [];
}

/**
 * Any term matches (an OR). Memories matching more of the distinct terms rank first; among equals, rank
 * normalisation 1 (divide by 1 + log length) keeps a long note that mentions a word in passing from outranking a
 * short memory about the thing asked. Each term is its own tsquery, built once, so counting the matched terms is a
 * few lexeme lookups per row.
 */
function fullTextRanking(scope: SQL, terms: readonly string[], candidates: number): SQL {
  const columns = terms.map(
    (term, index) => sql`quote_literal(${term}::text)::tsquery as ${sql.identifier(`t${index}`)}`,
  );
  const any = sql.join(
    terms.map((_, index) => sql`${sql.identifier(`t${index}`)}`),
    sql` || `,
  );
  const matched = sql.join(
    terms.map((_, index) => sql`(${memories.fts} @@ q.${sql.identifier(`t${index}`)})::int`),
    sql` + `,
  );
  return sql`(
    select id, row_number() over (order by matched desc, score desc, id) as rank
    from (
      select ${memories.id} as id, ${matched} as matched, ts_rank(${memories.fts}, q.tsq, 1) as score
      from ${memories}, (select *, ${any} as tsq from (select ${sql.join(columns, sql`, `)}) terms) q
      where ${scope} and ${memories.fts} @@ q.tsq
    ) matches
    order by rank
    limit ${candidates})`;
}

/** Exact cosine-distance scan over the caller's rows in scope with a current vector for this model. */
function vectorRanking(scope: SQL, userId: string, model: string, vector: number[], candidates: number): SQL {
  return sql`(
    select ${memories.id} as id,
           row_number() over (order by e.embedding <=> ${vectorLiteral(vector)}::text::vector, ${memories.id}) as rank
    from ${memories}
    join memory_embeddings e
      on e.user_id = ${userId}::uuid and e.memory_id = ${memories.id} and e.model = ${model}
     and e.content_hash = ${memories.contentHash}
    where ${scope} and vector_dims(e.embedding) = ${vector.length}
    order by rank
    limit ${candidates})`;
}

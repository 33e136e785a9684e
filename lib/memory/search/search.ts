import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { DEFAULT_PLANNING } from "@/lib/db/bulk";
import { memories } from "@/lib/db/schema";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { parseInput, ValidationError } from "@/lib/errors";
import { LIMITS, memoryFiltersSchema, queryInput, SEARCH_MODES, type SearchMode } from "@/lib/memory/contract";
import { canEmbed, type MemoryContext } from "@/lib/memory/core";
import { filterConditions, type SearchResult, toMemory } from "@/lib/memory/store";
import { inSpan } from "@/lib/telemetry";
import { instruments, secondsSince } from "@/lib/telemetry/metrics";
import { type ConfidenceSignals, confidenceOf, vectorStanding } from "./confidence";
import { embeddingModelKey, embedQuery, vectorLiteral } from "./embeddings";
import { lexicalRanking, TYPO_THRESHOLD } from "./lexical";
import { isOverviewQuestion, overview } from "./overview";

/**
 * The vector leg's share of a hybrid score (the lexical leg has the rest). Chosen on the tune half of the bench's
 * conversations with the local encoder (`npm run bench -- --only recall` prints its weight curve).
 */
export const VECTOR_WEIGHT = 0.2;
/** Memories the vector leg ranks; its normalisation (below) is over these. */
const VECTOR_POOL = 100;
/**
 * The vector leg enters a hybrid score as the mean of two values in [0, 1]. One is a softmax of the similarities over
 * its pool, at a temperature of this share of their spread (standard deviation): a memory that stands out by meaning
 * gets most of it, while a crowd of near-equal similarities (an encoder that cannot tell them apart) spreads it thin,
 * so the crowd cannot outvote the lexical leg. The other is the cosine similarity itself, which orders the lexical
 * leg's near-ties by meaning. With the softmax alone, a memory the vector leg picked out pushed a strong lexical hit
 * from the top (recall@1 on the tune half 52.5% against 54.5% for lexical); with the mean, recall@1 and recall@10 are
 * above lexical on both halves (docs/performance.md, "Search quality").
 */
const VECTOR_SHARPNESS = 0.1;

export const searchMemoriesInputSchema = memoryFiltersSchema.extend({
  query: queryInput,
  limit: z.number().int().min(1).max(LIMITS.searchResults).default(10),
  /** `hybrid` when vectors are available, else `lexical`. */
  mode: z.enum(SEARCH_MODES).optional(),
  /** The vector leg's share of a hybrid score, for tuning on the bench; VECTOR_WEIGHT otherwise. */
  vectorWeight: z.number().min(0).max(1).optional(),
  /** Only hits at least this confident (LIMITS.confidenceFloor: only confident ones); all ranked hits otherwise. */
  minConfidence: z.number().min(0).max(1).optional(),
});
export type SearchMemoriesInput = z.input<typeof searchMemoriesInputSchema>;

interface Ranked {
  id: string;
  score: number;
  lexical?: number;
  vector?: number;
  signals: ConfidenceSignals;
}

interface VectorLeg {
  hits: Array<{ id: string; score: number }>;
  /** The similarity's mean and standard deviation over every memory the scan read, and how many it read. */
  mean: number;
  spread: number;
  scanned: number;
}

const NO_VECTOR_LEG: VectorLeg = { hits: [], mean: 0, spread: 0, scanned: 0 };

interface LexicalRow {
  id: string;
  score: number;
  coverage: number;
  exact: number;
  memories: number;
}

/**
 * Search over the caller's memories. Lexical ranking is BM25 over the user's own corpus (./lexical.ts); the vector
 * leg (when the context has an embedding model and the database pgvector) is an exact cosine scan of the user's
 * vectors. Hybrid fuses the two by score, each normalised to [0, 1] and weighted (see fuse) — not by rank, which
 * lets a weak leg's noise outvote the other's certainty. `score` is in [0, 1] and comparable within a list; each result also carries the
 * value of every leg that ran. A question about the user in general ("what do you know about me?") has no terms to
 * rank by: it gets their profile, most used and latest memories instead. Ties break by recency, then id.
 */
export async function searchMemories(ctx: MemoryContext, raw: SearchMemoriesInput): Promise<SearchResult[]> {
  const startedAt = performance.now();
  return inSpan("memory search", {}, async (span) => {
    const { mode, results: ranked, minConfidence } = await search(ctx, raw);
    // Filtered after ranking, so a hit's rank and score are the same with or without the floor.
    const results = minConfidence === undefined ? ranked : ranked.filter((hit) => hit.confidence >= minConfidence);
    span.setAttributes({ "search.mode": mode, "search.results": results.length });
    instruments().searchDuration.record(secondsSince(startedAt), { mode });
    return results;
  });
}

async function search(
  ctx: MemoryContext,
  raw: SearchMemoriesInput,
): Promise<{ mode: SearchMode | "overview"; results: SearchResult[]; minConfidence?: number }> {
  const {
    query,
    limit,
    mode: requested,
    vectorWeight,
    minConfidence,
    ...filters
  } = parseInput(searchMemoriesInputSchema, raw);
  const vectors = canEmbed(ctx);
  if (requested === "vector" && !vectors) {
    throw new ValidationError(
      "Vector search is off: no embedding model is configured (EMBEDDING_MODEL=none) or the database has no pgvector.",
      [{ path: ["mode"], message: "vectors are off" }],
    );
  }
  const mode: SearchMode =
    requested === "vector" ? "vector" : vectors && requested !== "lexical" ? "hybrid" : "lexical";
  // Without asOf the world is as of today: a superseded fact is history, not an answer.
  const openAt = ctx.clock();
  if (isOverviewQuestion(query))
    return { mode: "overview", results: await overview(ctx, filters, limit, openAt), minConfidence };
  const scope = filterConditions(ctx, filters, { openAt });
  const results = await restoringPlanning(ctx, () =>
    mode === "lexical"
      ? lexicalSearch(ctx, scope, query, limit)
      : searchByLegs(ctx, mode, scope, query, limit, vectorWeight ?? VECTOR_WEIGHT),
  );
  return { mode, results, minConfidence };
}

/**
 * Embeds the query of a search about to run inside the caller's unit of work, so that the unit never holds its
 * connection while the encoder works: the search then finds the vector in the context's `queryEmbeddings`. Nothing for
 * a question the overview answers, which ranks by no vector.
 */
export async function embedAheadOfSearch(ctx: MemoryContext, query: string): Promise<void> {
  if (query.trim() && !isOverviewQuestion(query)) await embedQuery(ctx, query);
}

/** The search's transaction settings, with `planning` as its plan_cache_mode. */
function searchSettings(planning: string) {
  return { "pg_trgm.word_similarity_threshold": String(TYPO_THRESHOLD), plan_cache_mode: planning };
}

/**
 * How the lexical leg's statement is planned. It keeps its shape whoever asks (the user and the terms are parameters,
 * candidates come from the index leading with the user), so it is planned once per connection: on PostgreSQL planning
 * it took longer than running it (about 5 ms against 1 at 1,000 memories), and left to choose (`auto`) PostgreSQL went
 * on planning it on every call once other users' rows had grown the tables; on PGlite, which prepares statements too
 * (lib/db/pglite-prepared-statements.ts), planning was half of its time (docs/performance.md). Not on Citus, which
 * cannot route a generic plan (its planner needs the user's id).
 */
function lexicalPlanning(ctx: MemoryContext): string {
  return ctx.database.kind === "citus" ? DEFAULT_PLANNING.plan_cache_mode : "force_generic_plan";
}

/**
 * How the vector leg and the read of the best hits are planned: once per connection on PGlite, where it was measured
 * (docs/performance.md); per call elsewhere, since the vector leg reads all of a user's rows and a generic plan's
 * estimate of that is the same for a user of ten memories as for one of a hundred thousand. Its query vector is a
 * parameter typed as a vector, not cast from text: a generic plan casts a parameter on every row, and parsed the
 * query's 512 numbers once per memory.
 */
function vectorPlanning(ctx: MemoryContext): string {
  return ctx.database.kind === "pglite" ? "force_generic_plan" : DEFAULT_PLANNING.plan_cache_mode;
}

/** Runs one unit of a search's statements with the search's settings and `planning` as its plan cache mode. */
function inSearchUnit<T>(ctx: MemoryContext, planning: string, work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  return asUser(ctx, work, searchSettings(planning));
}

/**
 * Runs a search inside the caller's unit, if any, and sets its plan cache mode back after: the search's own would
 * outlive it there. After a failed statement the unit is aborted and takes no setting, so then the search's error
 * is the one thrown.
 */
async function restoringPlanning<T>(ctx: MemoryContext, search: () => Promise<T>): Promise<T> {
  if (!ctx.unit) return search();
  let failed = false;
  try {
    return await search();
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await ctx.unit.setLocal({ plan_cache_mode: DEFAULT_PLANNING.plan_cache_mode }).catch((error: unknown) => {
      if (!failed) throw error;
    });
  }
}

/** Lexical mode: one statement, the ranking joined to the memories it ranks (lexicalResults). */
function lexicalSearch(ctx: MemoryContext, scope: SQL, query: string, limit: number): Promise<SearchResult[]> {
  return inSearchUnit(ctx, lexicalPlanning(ctx), (unit) =>
    inSpan("search lexical leg", {}, () => lexicalResults(ctx, unit, scope, query, limit)),
  );
}

/** Hybrid and vector modes: each leg's candidates, fused, then the best read. */
async function searchByLegs(
  ctx: MemoryContext,
  mode: Exclude<SearchMode, "lexical">,
  scope: SQL,
  query: string,
  limit: number,
  vectorWeight: number,
): Promise<SearchResult[]> {
  const pool = Math.max(limit * 5, 50);
  // The query is embedded (in the encoder's threads) while the lexical leg runs, in a unit of its own: a unit waiting
  // for the encoder would hold PGlite's one connection idle.
  const queryVector = embedQuery(ctx, query);
  queryVector.catch(() => {});
  const lexical =
    mode === "vector"
      ? []
      : await inSearchUnit(ctx, lexicalPlanning(ctx), (unit) =>
          inSpan("search lexical leg", {}, async () =>
            unit.rows<LexicalRow>(await lexicalRanking(ctx.database, unit, scope, query, pool)),
          ),
        );
  const vectorOf = await queryVector;
  return inSearchUnit(ctx, vectorPlanning(ctx), async (unit) => {
    const vector = vectorOf
      ? await inSpan("search vector leg", {}, () =>
          vectorRanking(ctx, unit, scope, vectorOf, Math.max(pool, VECTOR_POOL)),
        )
      : NO_VECTOR_LEG;
    const lexicalHits = lexical.map((hit) => ({
      id: String(hit.id),
      score: Number(hit.score),
      coverage: Number(hit.coverage),
      exact: Number(hit.exact),
      memories: Number(hit.memories),
    }));
    return resultsOf(ctx, unit, fuse(lexicalHits, vector, mode, vectorWeight), limit, mode);
  });
}

/** Lexical mode in one statement: the ranking joined to the memories it ranks. */
async function lexicalResults(
  ctx: MemoryContext,
  unit: UnitOfWork,
  scope: SQL,
  query: string,
  limit: number,
): Promise<SearchResult[]> {
  const score = sql<number>`ranked.score`;
  const ranking = await lexicalRanking(ctx.database, unit, scope, query, limit);
  const rows = await unit.db
    .select({
      row: memories,
      score,
      coverage: sql<number>`ranked.coverage`,
      exact: sql<number>`ranked.exact`,
      memories: sql<number>`ranked.memories`,
    })
    .from(memories)
    .innerJoin(
      sql`(${ranking}) as ranked`,
      sql`ranked.id = ${memories.id} and ${memories.userId} = ${unit.userId}::uuid`,
    )
    .orderBy(desc(score), desc(memories.updatedAt), asc(memories.id));
  return rows.map(({ row, score, coverage, exact, memories: judged }) => {
    const signals = {
      lexical: Number(score),
      coverage: Number(coverage),
      exact: Number(exact),
      memories: Number(judged),
    };
    return {
      memory: toMemory(ctx, row),
      score: Number(score),
      lexical: Number(score),
      confidence: confidenceOf(signals, "lexical"),
      signals,
    };
  });
}

/**
 * Exact cosine scan over the caller's rows in scope with a current vector for the context's model: the nearest `pool`,
 * and the mean and spread (standard deviation) of the similarity over every vector compared (those of the query's
 * length), which the scan computes anyway: a hit's standing among all of the user's memories is a confidence signal
 * (confidence.ts).
 */
async function vectorRanking(
  ctx: MemoryContext,
  unit: UnitOfWork,
  scope: SQL,
  vector: number[],
  pool: number,
): Promise<VectorLeg> {
  if (!ctx.embeddingModel) return NO_VECTOR_LEG;
  // A vector of another length (the model's dimensions changed under one name) is left out by the CASE, not by a
  // filter on the scan, which the planner misestimates as keeping almost no row and so joins by one index lookup per
  // vector. OFFSET 0 keeps the subquery whole: each distance is computed once, and the window's rows stay narrow
  // (docs/performance.md, "What keeps search fast").
  const rows = await unit.rows<{ id: string; similarity: number; mean: number; spread: number; scanned: number }>(sql`
    -- The window's aggregates are over every vector compared, before the limit.
    select scanned.id, scanned.similarity, avg(scanned.similarity) over () as mean,
           coalesce(stddev_pop(scanned.similarity) over (), 0) as spread, count(*) over () as scanned
    from (
      select ${memories.id}::text as id, ${memories.updatedAt} as updated_at,
             case when vector_dims(e.embedding) = ${vector.length}
               then 1 - (e.embedding <=> ${vectorLiteral(vector)}::vector) end as similarity
      from ${memories}
      join memory_embeddings e
        on e.user_id = ${unit.userId}::uuid and e.memory_id = ${memories.id}
       and e.model = ${embeddingModelKey(ctx.embeddingModel)} and e.content_hash = ${memories.contentHash}
      where ${scope}
      offset 0
    ) scanned
    where scanned.similarity is not null
    order by scanned.similarity desc, scanned.updated_at desc, scanned.id
    limit ${pool}`);
  const [first] = rows;
  return {
    // Cosine similarity below zero means "unrelated" as surely as zero does.
    hits: rows.map((row) => ({ id: row.id, score: Math.max(0, Number(row.similarity)) })),
    mean: first ? Number(first.mean) : 0,
    spread: first ? Number(first.spread) : 0,
    scanned: first ? Number(first.scanned) : 0,
  };
}

/**
 * Combines the legs by score: the lexical leg's share of the query matched, and the vector leg's mean of its softmax
 * over its pool and the similarity (VECTOR_SHARPNESS). A memory missing from one leg's candidates scores 0 there. Each
 * leg's own value (the lexical score, the cosine similarity) is kept beside the fused score, and the signals its
 * confidence is read from (confidence.ts): the lexical leg's coverage of the query, the similarity's standing among
 * this query's own similarities over the pool.
 */
function fuse(
  lexical: ReadonlyArray<{ id: string; score: number; coverage: number; exact: number; memories: number }>,
  leg: VectorLeg,
  mode: SearchMode,
  vectorWeight: number,
): Ranked[] {
  const vector = leg.hits;
  const standing = vector.map((hit) => vectorStanding(hit.score, leg));
  const memories = Math.max(leg.scanned, lexical[0]?.memories ?? 0);
  const lexicalSignals = (hit: { score: number; coverage: number; exact: number }) => ({
    lexical: hit.score,
    coverage: hit.coverage,
    exact: hit.exact,
    memories,
  });
  if (mode === "lexical")
    return lexical.map((hit) => ({ id: hit.id, score: hit.score, lexical: hit.score, signals: lexicalSignals(hit) }));
  if (mode === "vector")
    return vector.map((hit, index) => ({
      id: hit.id,
      score: hit.score,
      vector: hit.score,
      signals: { lexical: 0, coverage: 0, exact: 0, memories, cosine: hit.score, standing: standing[index] ?? 0 },
    }));
  const shares = softmaxShares(vector.map((hit) => hit.score));
  const legs = new Map<string, Ranked>();
  for (const hit of lexical)
    legs.set(hit.id, {
      id: hit.id,
      score: (1 - vectorWeight) * hit.score,
      lexical: hit.score,
      signals: lexicalSignals(hit),
    });
  // A memory outside the vector leg's pool is no nearer the query than the pool's farthest.
  const floorCosine = vector.length > 0 ? Math.min(...vector.map((hit) => hit.score)) : 0;
  const floorStanding = vectorStanding(floorCosine, leg);
  for (const [index, hit] of vector.entries()) {
    const entry = legs.get(hit.id) ?? {
      id: hit.id,
      score: 0,
      lexical: 0,
      signals: { lexical: 0, coverage: 0, exact: 0, memories },
    };
    entry.vector = hit.score;
    entry.signals.cosine = hit.score;
    entry.signals.standing = standing[index] ?? 0;
    entry.score += (vectorWeight * ((shares[index] ?? 0) + hit.score)) / 2;
    legs.set(hit.id, entry);
  }
  for (const entry of legs.values()) {
    entry.vector ??= 0;
    entry.signals.cosine ??= floorCosine;
    entry.signals.standing ??= floorStanding;
  }
  return [...legs.values()];
}

/** exp((s - max) / τ), normalised to sum 1, with τ = VECTOR_SHARPNESS × the standard deviation of `scores`. */
function softmaxShares(scores: readonly number[]): number[] {
  if (scores.length === 0) return [];
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  const spread = Math.sqrt(scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / scores.length);
  if (spread === 0) return scores.map(() => 1 / scores.length);
  const best = Math.max(...scores);
  const weights = scores.map((score) => Math.exp((score - best) / (VECTOR_SHARPNESS * spread)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => weight / total);
}

/** The memories behind the best `limit` ranked ids, best first; equal scores go to the more recent memory. */
async function resultsOf(
  ctx: MemoryContext,
  unit: UnitOfWork,
  ranked: Ranked[],
  limit: number,
  mode: SearchMode,
): Promise<SearchResult[]> {
  if (ranked.length === 0) return [];
  // Only the best `limit` (and whatever ties with the last of them, which recency then orders) are read.
  const sorted = [...ranked].sort((a, b) => b.score - a.score);
  const cutoff = sorted[Math.min(limit, sorted.length) - 1]!.score;
  const wanted = sorted.filter((entry, index) => index < limit || entry.score === cutoff);
  const rows = await unit.db
    .select()
    .from(memories)
    .where(
      and(
        eq(memories.userId, ctx.principal.userId),
        inArray(
          memories.id,
          wanted.map((entry) => entry.id),
        ),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return wanted
    .flatMap((entry) => {
      const row = byId.get(entry.id);
      return row ? [{ entry, row }] : [];
    })
    .sort(
      (a, b) =>
        b.entry.score - a.entry.score ||
        b.row.updatedAt.getTime() - a.row.updatedAt.getTime() ||
        (a.row.id < b.row.id ? -1 : 1),
    )
    .slice(0, limit)
    .map(({ entry, row }) => ({
      memory: toMemory(ctx, row),
      score: entry.score,
      ...(entry.lexical === undefined ? {} : { lexical: entry.lexical }),
      ...(entry.vector === undefined ? {} : { vector: entry.vector }),
      confidence: confidenceOf(entry.signals, mode),
      signals: entry.signals,
    }));
}

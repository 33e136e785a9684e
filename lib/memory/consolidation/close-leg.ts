import { type SQL, sql } from "drizzle-orm";

// The vector leg of the candidate finder (lib/memory/consolidation/candidates.ts, docs/memory-model.md,
// "Consolidation"): a union of statements over its `live` memories, pairs it labels "close" for the model to judge.

/**
 * Cosine similarity of two memories' vectors from which they are shown to the model together ("close"): with the
 * bundled encoder, restatements in other words score 0.76–0.92 and unrelated facts of one user 0.4–0.5.
 */
export const CLOSE_SIMILARITY = 0.75;
/** Nearest neighbours per memory the vector leg pairs it with at most. */
const CLOSE_NEIGHBOURS = 4;
/**
 * Cosine similarity from which two memories that are each other's nearest neighbour among the user's memories of one
 * namespace and kind are shown together too ("close"), however far below CLOSE_SIMILARITY: a restatement in a style
 * of its own ("User's weekends are for hiking" beside "User is very into hiking") or a new value said another way
 * ("signed the lease on a flat in Porto" beside "renting a place in Lisbon") scores 0.5–0.7, yet stands out of the
 * user's other memories as each other's nearest (docs/memory-model.md, "Consolidation"). The floor only keeps a user
 * with a few unrelated memories from having them all shown.
 */
export const MUTUAL_SIMILARITY = 0.45;
/**
 * The vector leg of the finder: each memory probed pairs with its CLOSE_NEIGHBOURS nearest within CLOSE_SIMILARITY,
 * and with its nearest when that one's nearest is it in turn, within MUTUAL_SIMILARITY.
 */
export function closeLeg(userId: string, close: { model: string; since: Date | null }): SQL {
  // A memory is probed for its nearest neighbours when it (or its vector) changed since the last run that showed the
  // model every group it found; a pair of two unchanged memories was a candidate of that run already. Each pair is
  // looked at from one side: the probed memory with the lower id, or the probed one when the other was not probed.
  const since = close.since ? close.since.toISOString() : null;
  const probed = (memory: string, embedding: string) =>
    since === null
      ? sql`true`
      : sql`(${sql.raw(memory)}.updated_at > ${since}::timestamptz or ${sql.raw(embedding)}.created_at > ${since}::timestamptz)`;
  const withVector = (memory: string, embedding: string) => vectorJoin(userId, close.model, memory, embedding);
  return sql`
      union
      select ${pairOf("a.id", "a.version", "n.id", "n.version")}
      from live a
      ${withVector("a", "ea")}
      cross join lateral (
        select b.id, b.version from live b
        ${withVector("b", "eb")}
        where b.namespace = a.namespace and b.kind = a.kind and b.id <> a.id
          and (b.id > a.id or not ${probed("b", "eb")})
          and vector_dims(eb.embedding) = vector_dims(ea.embedding)
          and eb.embedding <=> ea.embedding <= ${1 - CLOSE_SIMILARITY}
        order by eb.embedding <=> ea.embedding, b.id
        limit ${CLOSE_NEIGHBOURS}) n
      where ${probed("a", "ea")}
      union
      select ${pairOf("m.id", "m.version", "m.n_id", "m.n_version")}
      from (
        -- Each probed memory's nearest, scanned once: a nearest that was probed too reads its own nearest from here,
        -- so a run that probes every memory scans each once for this, not twice (docs/performance.md, "Memory
        -- hygiene"); only a nearest left unprobed is scanned for its own.
        with nearest as (
          select a.id, a.version, a.namespace, a.kind, n.id as n_id, n.version as n_version, n.distance
          from live a
          ${withVector("a", "ea")}
          cross join lateral (${nearestOf(userId, close.model, "a", "ea")}) n
          where ${probed("a", "ea")}
        )
        select a.id, a.version, a.n_id, a.n_version from nearest a
        left join nearest back on back.id = a.n_id
        where a.distance <= ${1 - MUTUAL_SIMILARITY}
          and coalesce(back.n_id,
            (select own.id from live n
             ${withVector("n", "en")}
             cross join lateral (${nearestOf(userId, close.model, "n", "en")}) own
             where n.id = a.n_id)) = a.id
      ) m`;
}

/** A pair as the finder's legs give it: the lower id and its version first, then the other, labelled "close". */
function pairOf(aId: string, aVersion: string, nId: string, nVersion: string): SQL {
  const [a, av, n, nv] = [sql.raw(aId), sql.raw(aVersion), sql.raw(nId), sql.raw(nVersion)];
  return sql`least(${a}, ${n}), case when ${a} < ${n} then ${av} else ${nv} end,
        greatest(${a}, ${n}), case when ${a} < ${n} then ${nv} else ${av} end, 'close'`;
}

/** Joins `memory`'s current vector for the model, as `embedding`. */
function vectorJoin(userId: string, model: string, memory: string, embedding: string): SQL {
  const [m, e] = [sql.raw(memory), sql.raw(embedding)];
  return sql`join memory_embeddings ${e} on ${e}.user_id = ${userId} and ${e}.memory_id = ${m}.id
        and ${e}.model = ${model} and ${e}.content_hash = ${m}.content_hash`;
}

/**
 * The live memory of the namespace and kind of the memory the caller names `a`, other than `other`, nearest to
 * `vector`.embedding, with its version and distance; of two as near, the lower id, so a memory has one nearest however
 * often it is asked.
 */
function nearestOf(userId: string, model: string, other: string, vector: string): SQL {
  const [o, v] = [sql.raw(other), sql.raw(vector)];
  return sql`
        select b.id, b.version, eb.embedding <=> ${v}.embedding as distance from live b
        ${vectorJoin(userId, model, "b", "eb")}
        where b.namespace = a.namespace and b.kind = a.kind and b.id <> ${o}.id
          and vector_dims(eb.embedding) = vector_dims(${v}.embedding)
        order by eb.embedding <=> ${v}.embedding, b.id
        limit 1`;
}

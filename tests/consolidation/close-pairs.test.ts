import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/client";
import { asUser } from "@/lib/db/unit-of-work";
import { closePairs } from "@/lib/memory/consolidation/close-leg";
import { cosineDistanceOf } from "@/lib/memory/consolidation/close-pairs-worker.mjs";
import type { MemoryContext } from "@/lib/memory/core";
import { createMemory, deleteMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { openMigratedPglite } from "../support/databases";

/**
 * The vector leg compares vectors in a worker thread (lib/memory/consolidation/close-pairs-worker.mjs). Its pairs must
 * be those of the statement that compared them in the database before, kept here as the reference: each probed
 * memory's four nearest within 0.25 of cosine distance, and its nearest within 0.55 when that one's nearest is it in
 * turn. Most memories' vectors are of eight small whole numbers, so many tie or repeat another's exactly; a third are
 * of eight fractions, whose sums single precision rounds (as pgvector's do); a few are of four numbers, compared only
 * with each other. In two namespaces and two kinds, with a vector of zeros among them (no distance to anything), one
 * memory not live, and one old memory whose vector was written again since a complete run.
 */
const MODEL = "toy:fixed";

function reference(userId: string, since: Date | null): SQL {
  // In a CASE: PostgreSQL may compute a distance before it checks the lengths, and vectors of two lengths fail then.
  const distance = (x: string, y: string) =>
    sql`(case when vector_dims(${sql.raw(x)}.embedding) = vector_dims(${sql.raw(y)}.embedding)
      then ${sql.raw(x)}.embedding <=> ${sql.raw(y)}.embedding end)`;
  const probed = (memory: string, embedding: string) =>
    since === null
      ? sql`true`
      : sql`(${sql.raw(memory)}.updated_at > ${since.toISOString()}::timestamptz or ${sql.raw(embedding)}.created_at > ${since.toISOString()}::timestamptz)`;
  const withVector = (memory: string, embedding: string) =>
    sql`join memory_embeddings ${sql.raw(embedding)} on ${sql.raw(embedding)}.user_id = ${userId}
      and ${sql.raw(embedding)}.memory_id = ${sql.raw(memory)}.id and ${sql.raw(embedding)}.model = ${MODEL}
      and ${sql.raw(embedding)}.content_hash = ${sql.raw(memory)}.content_hash`;
  const nearestOf = (other: string, vector: string) => sql`
    select b.id, b.version, ${distance("eb", vector)} as distance from live b
    ${withVector("b", "eb")}
    where b.namespace = a.namespace and b.kind = a.kind and b.id <> ${sql.raw(other)}.id
      and vector_dims(eb.embedding) = vector_dims(${sql.raw(vector)}.embedding)
    order by ${distance("eb", vector)}, b.id
    limit 1`;
  return sql`
    with live as (
      select m.* from memories m where m.user_id = ${userId} and m.status = 'active' and m.text is not null
    )
    select least(a.id, n.id)::text as a, greatest(a.id, n.id)::text as b
    from live a
    ${withVector("a", "ea")}
    cross join lateral (
      select b.id from live b
      ${withVector("b", "eb")}
      where b.namespace = a.namespace and b.kind = a.kind and b.id <> a.id
        and (b.id > a.id or not ${probed("b", "eb")})
        and vector_dims(eb.embedding) = vector_dims(ea.embedding)
        and ${distance("eb", "ea")} <= 0.25
      order by ${distance("eb", "ea")}, b.id
      limit 4) n
    where ${probed("a", "ea")}
    union
    select least(m.id, m.n_id)::text, greatest(m.id, m.n_id)::text
    from (
      with nearest as (
        select a.id, a.namespace, a.kind, n.id as n_id, n.distance
        from live a
        ${withVector("a", "ea")}
        cross join lateral (${nearestOf("a", "ea")}) n
        where ${probed("a", "ea")}
      )
      select a.id, a.n_id from nearest a
      left join nearest back on back.id = a.n_id
      where a.distance <= 0.55
        and coalesce(back.n_id,
          (select own.id from live n ${withVector("n", "en")} cross join lateral (${nearestOf("n", "en")}) own
           where n.id = a.n_id)) = a.id
    ) m`;
}

// On PGlite alone: the other databases here have no pgvector, so no vector leg.
describe("the vector leg's pairs", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openMigratedPglite();
  });
  afterAll(async () => {
    await database.close();
  });

  it("compare by the same distance as pgvector's <=>, to the last bit", async () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648 - 0.5;
    };
    const vectors = Array.from({ length: 40 }, () => Array.from({ length: 512 }, () => Math.fround(random())));
    const literal = (vector: number[]) => `[${vector.join(",")}]`;
    for (let i = 1; i < vectors.length; i++) {
      const [row] = await database.unbound.rows<{ distance: number }>(
        sql`select ${literal(vectors[i - 1]!)}::vector <=> ${literal(vectors[i]!)}::vector as distance`,
      );
      expect(cosineDistanceOf(vectors[i - 1]!, vectors[i]!)).toBe(Number(row!.distance));
    }
  });

  it("are the pairs the database's own comparison finds, whether every memory is probed or those changed", async () => {
    const userId = await createUser(database);
    let now = Date.now() + 2 * 86_400_000;
    const clock = () => {
      now += 1_000;
      return new Date(now);
    };
    const ctx: MemoryContext = { ...contextFor(database, userId), clock };
    const ids: string[] = [];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % 3;
    };
    for (let i = 0; i < 160; i++) {
      // Written a day after the first 100: a run after a complete one between them probes the last 60.
      if (i === 100) now += 86_400_000;
      const namespace = i % 5 === 0 ? ["work"] : undefined;
      const memory = await createMemory(ctx, {
        ...(i % 7 === 0 ? { kind: "document", content: { fact: `number ${i}` } } : { content: `Fact number ${i}` }),
        ...(namespace ? { namespace } : {}),
      });
      ids.push(memory.id);
      const vector =
        i === 3
          ? Array(8).fill(0)
          : i % 3 === 1
            ? Array.from({ length: 8 }, () => (next() + 1) / 3 + Math.sin(i * 7 + next()) / 5)
            : Array.from({ length: i % 11 === 0 ? 4 : 8 }, next);
      await database.unbound.rows(sql`
        insert into memory_embeddings (user_id, memory_id, model, embedding, content_hash)
        select user_id, id, ${MODEL}, ${`[${vector.join(",")}]`}::vector, content_hash from memories
        where user_id = ${userId} and id = ${memory.id}`);
    }
    await deleteMemory(ctx, ids[10]!);
    await database.unbound.rows(sql`
      update memory_embeddings set created_at = now() + interval '4 days' where memory_id = ${ids[20]!}`);
    const live = (alias: string) => sql.raw(`${alias}.status = 'active' and ${alias}.text is not null`);
    const between = new Date(Date.now() + 2.5 * 86_400_000 + 100_000);

    for (const since of [null, between]) {
      const expected = await asUser(ctx, (unit) => unit.rows<{ a: string; b: string }>(reference(userId, since)));
      const found = await closePairs(ctx, { model: MODEL, since, live });
      const key = (pair: { a: string; b: string }) => `${pair.a} ${pair.b}`;
      expect(found.map(key).sort()).toEqual(expected.map(key).sort());
      expect(expected.length).toBeGreaterThan(since === null ? 300 : 100);
    }
  });
});

import { type SQL, sql } from "drizzle-orm";
import { Piscina } from "piscina";
import { asUser } from "@/lib/db/unit-of-work";
import { intArray, type MemoryContext, textArray } from "@/lib/memory/core";
import { processState } from "@/lib/process-state";
import { workerEntry } from "@/lib/worker-entry";
import type { ClosePair, VectorRow } from "./close-pairs-worker.mjs";

export type { ClosePair };

// The vector leg of the candidate finder (lib/memory/consolidation/candidates.ts, docs/memory-model.md,
// "Consolidation"): pairs of memories near in meaning, "close", for the model to judge. The database only reads the
// vectors, once each; a worker thread compares them (close-pairs-worker.mjs), so that comparing every two memories of
// a user, which grows with the square of what they hold, neither holds PGlite's one connection nor runs on the
// server's thread (docs/performance.md, "Memory hygiene").

/**
 * The vector leg's pairs among the user's `live` memories with a current vector for `model`: each memory probed
 * (changed, or its vector written, since `since`; every one when it is null) with its nearest neighbours close in
 * meaning, and with its nearest when that one's nearest is it in turn (close-pairs-worker.mjs). The vectors are read
 * once, whatever is probed; none is compared when nothing is.
 */
export async function closePairs(
  ctx: MemoryContext,
  options: { model: string; since: Date | null; live: (alias: string) => SQL },
): Promise<ClosePair[]> {
  const { model, since, live } = options;
  const probed =
    since === null
      ? sql`true`
      : sql`(m.updated_at > ${since.toISOString()}::timestamptz or e.created_at > ${since.toISOString()}::timestamptz)`;
  const rows = await asUser(ctx, (unit) =>
    unit.rows<VectorRow>(sql`
      select m.id::text as id, m.version, array_to_json(m.namespace)::text || ' ' || m.kind as block,
        ${probed} as probed, e.embedding::text as vector
      from memories m
      join memory_embeddings e on e.user_id = ${unit.userId} and e.memory_id = m.id
        and e.model = ${model} and e.content_hash = m.content_hash
      where m.user_id = ${unit.userId} and ${live("m")}`),
  );
  if (rows.length < 2 || !rows.some((row) => row.probed)) return [];
  return closePairsPool().run({ rows: rows.map((row) => ({ ...row, version: Number(row.version) })) });
}

/**
 * The pairs as a leg of the finder's statement (candidates.ts, pairsStatement): each still `live` at the version the
 * worker compared, so a memory changed meanwhile is left for the next run.
 */
export function closeLeg(pairs: readonly ClosePair[]): SQL {
  return sql`
      union
      select la.id, la.version, lb.id, lb.version, 'close'
      from unnest(${textArray(pairs.map((pair) => pair.a))}, ${intArray(pairs.map((pair) => pair.av))},
        ${textArray(pairs.map((pair) => pair.b))}, ${intArray(pairs.map((pair) => pair.bv))}) as c(a, av, b, bv)
      join live la on la.id = c.a::uuid and la.version = c.av
      join live lb on lb.id = c.b::uuid and lb.version = c.bv`;
}

const POOL = "close-pairs-pool";
/** An idle comparing thread ends after this long; the next run starts one again. */
const IDLE_MS = 30_000;

function closePairsPool(): Piscina<{ rows: VectorRow[] }, ClosePair[]> {
  return processState(
    POOL,
    () =>
      new Piscina({
        filename: workerEntry("lib/memory/consolidation/close-pairs-worker.mjs"),
        minThreads: 0,
        maxThreads: 1,
        idleTimeout: IDLE_MS,
      }),
  );
}

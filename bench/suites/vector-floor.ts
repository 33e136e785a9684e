import { sql } from "drizzle-orm";
import type { BenchQuery } from "../data/generator";
import { hashedVector } from "../data/hashed-vectors";
import { mean, recallAtK, summarize, timed } from "../metrics";
import type { LedgerStore } from "../peers/ledger";
import { chunks } from "../peers/store";
import { SEARCH_LIMIT, type SearchFigure } from "./search";

const MODEL = "bench:hashed";
const literal = (vector: readonly number[]) => `[${vector.join(",")}]`;

/**
 * The physical floor of per-user vector search: an exact cosine scan over one user's vectors in memory_embeddings
 * (the app's table and key), no index, no fusion. Vectors are the bench's hashed stand-ins, written straight into the
 * table for the querying users only.
 */
export async function measureVectorFloor(
  ledger: LedgerStore,
  queries: readonly BenchQuery[],
  memoriesPerUser: number,
): Promise<{ figure: SearchFigure; explain: string }> {
  const { database } = ledger;
  const users = [...new Set(queries.map((query) => query.user))];
  for (const user of users) {
    const { userId } = (await ledger.contextOf(user)).principal;
    const rows = await database.unbound.rows<{ id: string; text: string; content_hash: string }>(
      sql`select id, text, content_hash from memories where user_id = ${userId}::uuid`,
    );
    for (const part of chunks(rows, 500)) {
      await database.unbound.rows(sql`
        insert into memory_embeddings (user_id, memory_id, model, embedding, content_hash)
        values ${sql.join(
          part.map(
            (row) =>
              sql`(${userId}::uuid, ${row.id}::uuid, ${MODEL}, ${literal(hashedVector(row.text))}::text::vector, ${row.content_hash})`,
          ),
          sql`, `,
        )}
        on conflict do nothing`);
    }
  }
  const scan = async (query: BenchQuery) => {
    const { userId } = (await ledger.contextOf(query.user)).principal;
    return sql`
      select m.key from memory_embeddings e
      join memories m on m.user_id = e.user_id and m.id = e.memory_id
      where e.user_id = ${userId}::uuid and e.model = ${MODEL}
      order by e.embedding <=> ${literal(hashedVector(query.text))}::text::vector
      limit ${SEARCH_LIMIT}`;
  };
  const latencies: number[] = [];
  const recalls: number[] = [];
  for (const query of queries) {
    const statement = await scan(query);
    const { ms, value } = await timed(() => database.unbound.rows<{ key: string }>(statement));
    latencies.push(ms);
    recalls.push(
      recallAtK(
        value.map((row) => row.key),
        query.relevant,
        SEARCH_LIMIT,
      ),
    );
  }
  const first = queries[0];
  const plan = first
    ? await database.unbound.rows<{ "QUERY PLAN": string }>(sql`explain (analyze, buffers) ${await scan(first)}`)
    : [];
  return {
    figure: {
      store: "Exact vector scan (floor)",
      detail: "PGlite + pgvector, hashed 128-d vectors, no index",
      memoriesPerUser,
      latencyMs: summarize(latencies),
      recallAt10: mean(recalls),
      foreignRows: 0,
      leakingQueries: 0,
    },
    explain: plan.map((row) => row["QUERY PLAN"]).join("\n"),
  };
}

import { sql } from "drizzle-orm";
import { BULK_PLANNING, DEFAULT_PLANNING } from "@/lib/db/bulk";
import type { UnitOfWork } from "@/lib/db/unit-of-work";

/**
 * From this many rows a batch counts itself: below it the trigger's statement a row costs less than the five extra
 * statements (two settings, three counts).
 */
export const COUNTED_TOGETHER_FROM = 16;

/**
 * A batch of new memories counted into the user's vocabulary and lexical statistics set-wise: the row-level triggers
 * of migration 0024 would run several statements per row, and a bulk import would spend most of its time there. The
 * insert runs with app.bulk_statistics on, which the insert trigger skips for, and then one statement per table adds
 * what the inserted rows hold, exactly what the trigger would have added row by row. The insert's plan is kept for
 * the next batch (BULK_PLANNING). Each statement reads and writes by the user's id (selected from the rows, grouped
 * by it), so Citus pushes it down to the user's shard.
 */
export async function insertCountedTogether<T>(
  unit: UnitOfWork,
  rowCount: number,
  insert: () => Promise<T[]>,
  idOf: (row: T) => string,
): Promise<T[]> {
  if (rowCount < COUNTED_TOGETHER_FROM) return insert();
  await unit.setLocal({ "app.bulk_statistics": "on", ...BULK_PLANNING });
  let rows: T[];
  try {
    rows = await insert();
  } finally {
    await unit.setLocal({ "app.bulk_statistics": "off", ...DEFAULT_PLANNING });
  }
  if (rows.length > 0) await countNewMemories(unit, rows.map(idOf));
  return rows;
}

async function countNewMemories(unit: UnitOfWork, ids: readonly string[]): Promise<void> {
  const user = sql`${unit.userId}::uuid`;
  const added = sql`m.user_id = ${user} and m.id = any(${`{${ids.join(",")}}`}::uuid[])`;
  // The corpus row first, as the trigger does: its lock queues other writers of this user before any lexeme or word.
  await unit.rows(sql`
    insert into memory_corpus (user_id, docs, lexemes)
    select m.user_id, count(*)::int, sum(length(m.fts))::bigint
    from memories m where ${added} and m.status = 'active'
    group by m.user_id
    on conflict (user_id) do update
      set docs = memory_corpus.docs + excluded.docs, lexemes = memory_corpus.lexemes + excluded.lexemes`);
  await unit.rows(sql`
    insert into memory_lexemes (user_id, lexeme, docs)
    select m.user_id, l, count(*)::int
    from memories m cross join lateral unnest(tsvector_to_array(m.fts)) as l
    where ${added} and m.status = 'active'
    group by m.user_id, l order by l
    on conflict (user_id, lexeme) do update set docs = memory_lexemes.docs + excluded.docs`);
  await unit.rows(sql`
    insert into memory_terms (user_id, term, docs)
    select m.user_id, w.term, count(*)::int
    from memories m cross join lateral memory_terms_of(m.text) as w(term)
    where ${added} and m.purged_at is null
    group by m.user_id, w.term order by w.term
    on conflict (user_id, term) do update set docs = memory_terms.docs + excluded.docs`);
}

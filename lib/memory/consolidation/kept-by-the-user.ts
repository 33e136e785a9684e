import { type SQL, sql } from "drizzle-orm";
import { textArray } from "@/lib/memory/core";
import type { UserRejections } from "@/lib/memory/review";

// What the user kept by rejecting a consolidation change (lib/memory/review/rejected-changes.ts), as the finder's
// statements leave it out (candidates.ts): pairs by hashed equality or an array of a few ids, never a subquery per pair.

/** The pairs a rejected merge named, as a statement of its own: `kept_apart (a, b)`. */
export function keptApartStatement(kept: UserRejections): SQL {
  return sql`,
    kept_apart as (
      select * from unnest(${textArray(kept.apart.map((pair) => pair.a))}::uuid[],
        ${textArray(kept.apart.map((pair) => pair.b))}::uuid[]) as k(a, b)
    )`;
}

/**
 * Conditions on a pair `p` of live memories `la` and `lb` (each with its `since`): not kept apart, and not one whose
 * older memory, the one a supersede would close, the user kept standing. A duplicate may still be folded into it.
 */
export function notKept(kept: UserRejections): SQL {
  const standing = standingIds(kept);
  return sql`not exists (select 1 from kept_apart k where k.a = p.a and k.b = p.b)
      and not (p.relation <> 'duplicate' and la.since <= lb.since and p.a = any(${standing}))
      and not (p.relation <> 'duplicate' and lb.since <= la.since and p.b = any(${standing}))`;
}

/** Whether memory `id` is one the user kept standing: no run closes it while its words stay. */
export const keptStanding = (kept: UserRejections, id: SQL): SQL => sql`${id} = any(${standingIds(kept)})`;

const standingIds = (kept: UserRejections) => sql`${textArray(kept.standing.map((memory) => memory.id))}::uuid[]`;

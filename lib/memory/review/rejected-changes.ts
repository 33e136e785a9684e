// A consolidation change the user rejected (docs/memory-model.md, "Consolidation"): the memories it named stay as they
// were, so while they keep the versions it was proposed at, the pass neither counts nor proposes it again. The
// candidate finder leaves those pairs and dated facts out, and the gate refuses such an op in any group. Both read the
// rejection through these statements, so what the card counts and what a run may change cannot disagree.

import { type SQL, sql } from "drizzle-orm";

/** Whether the proposal row `rp` named memory `id` at `version`: as its memory, or as one a merge folds in. */
const named = (id: SQL, version: SQL) =>
  sql`((rp.memory_id = ${id} and rp.expected_version = ${version}) or (rp.op = 'merge'
    and rp.content -> 'from' @> jsonb_build_array(jsonb_build_object('id', ${id}, 'version', ${version}))))`;

/**
 * The ids of the user's rejected merges that named two or more of these memories (`ids` a uuid[] and `versions` an
 * int[] of one length) at these versions: the user kept them apart.
 */
export function rejectedMerges(userId: string, ids: SQL, versions: SQL): SQL {
  return sql`select rp.id from memory_proposals rp
    where rp.user_id = ${userId} and rp.status = 'rejected' and rp.op = 'merge'
      and (select count(*) from unnest(${ids}, ${versions}) as s(id, version)
        where ${named(sql`s.id`, sql`s.version`)}) >= 2`;
}

/**
 * The ids of the user's rejected closes (an update giving a validTo: a supersede or an expire) of any of these
 * memories at these versions: the user said the fact still holds.
 */
export function rejectedCloses(userId: string, ids: SQL, versions: SQL): SQL {
  return sql`select rp.id from memory_proposals rp
    where rp.user_id = ${userId} and rp.status = 'rejected' and rp.op = 'update' and rp.valid_to is not null
      and (rp.memory_id, rp.expected_version) in (select * from unnest(${ids}, ${versions}))`;
}

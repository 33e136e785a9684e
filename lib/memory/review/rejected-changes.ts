// A consolidation change the user rejected (docs/memory-model.md, "Consolidation") is not proposed again. Two
// memories a rejected merge named are kept apart while both stand. A memory whose close (a supersede or an expiry) the
// user rejected is kept standing while its content stays as it was: the pass neither closes it nor folds it into
// another memory, though it may still fold a duplicate into it (keeping its words) or close an older value by it. The
// candidate finder leaves those pairs and facts out of runs and the health card, and the gate takes them out of any
// op, from the same reading, so what the card counts and what a run may change cannot disagree.

import { sql } from "drizzle-orm";
import type { UnitOfWork } from "@/lib/db/unit-of-work";
import { UUID } from "./proposals";

export interface UserRejections {
  /** Memories a rejected merge named together, each pair both ways round, with that proposal. */
  apart: Array<{ a: string; b: string; proposal: string }>;
  /** Memories whose close the user rejected and whose content has not changed since, with that proposal. */
  standing: Array<{ id: string; proposal: string }>;
}

/** The user's rejected consolidation changes that still hold, read in two small statements. */
export async function userRejections(unit: UnitOfWork, userId: string): Promise<UserRejections> {
  const merges = await unit.rows<{ proposal: string; into: string; content: unknown }>(sql`
    select rp.id::text as proposal, rp.memory_id::text as into, rp.content from memory_proposals rp
    where rp.user_id = ${userId} and rp.status = 'rejected' and rp.op = 'merge' and rp.memory_id is not null`);
  const apart: UserRejections["apart"] = [];
  for (const { proposal, into, content } of merges) {
    const from = (content as { from?: unknown } | null)?.from;
    const folded = Array.isArray(from) ? from.map((entry) => (entry as { id?: unknown } | null)?.id) : [];
    const valid = folded.filter((id): id is string => typeof id === "string" && UUID.test(id));
    const ids = [...new Set([into, ...valid.map((id) => id.toLowerCase())])];
    for (const a of ids) for (const b of ids) if (a !== b) apart.push({ a, b, proposal });
  }
  const standing = await unit.rows<{ id: string; proposal: string }>(sql`
    select distinct on (m.id) m.id::text as id, rp.id::text as proposal
    from memory_proposals rp
    join memories m on m.user_id = rp.user_id and m.id = rp.memory_id and m.content_hash = rp.content_hash
    where rp.user_id = ${userId} and m.user_id = ${userId} and rp.status = 'rejected' and rp.op = 'update'
      and rp.valid_to is not null
    order by m.id, rp.created_at desc`);
  return { apart, standing };
}

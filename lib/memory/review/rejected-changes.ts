// A consolidation change the user rejected (docs/memory-model.md, "Consolidation") is not proposed again. Two
// memories a rejected merge named are kept apart for as long as both stand. A memory whose close was rejected stands
// beside every memory that was there, as it was, when the user rejected it: a memory written or changed since may still
// supersede it. A rejected expiry holds while the memory keeps the version it was proposed at. The candidate finder
// leaves those pairs and dated facts out of runs and the health card, and the gate takes them out of any op, so what
// the card counts and what a run may change cannot disagree.

import { type SQL, sql } from "drizzle-orm";
import { asUser } from "@/lib/db/unit-of-work";
import { type MemoryContext, textArray } from "@/lib/memory/core";

const rejected = (userId: string, op: "merge" | "update") =>
  sql`rp.user_id = ${userId} and rp.status = 'rejected' and rp.op = ${op}`;

/** Each memory a rejected merge named, as (proposal, id): the standing memory and every one it would fold in. */
function mergeNamed(userId: string): SQL {
  return sql`select rp.id as proposal, rp.memory_id as id from memory_proposals rp where ${rejected(userId, "merge")}
    union all
    select rp.id, (f.value ->> 'id')::uuid from memory_proposals rp
    cross join lateral jsonb_array_elements(case when jsonb_typeof(rp.content -> 'from') = 'array'
      then rp.content -> 'from' else '[]'::jsonb end) as f
    where ${rejected(userId, "merge")}`;
}

/** Rejected closes (an update giving a validTo: a supersede or an expiry) as (proposal, id, version, at). */
function closesRejected(userId: string): SQL {
  return sql`select rp.id as proposal, rp.memory_id as id, rp.expected_version as version, rp.created_at as at
    from memory_proposals rp where ${rejected(userId, "update")} and rp.valid_to is not null`;
}

/**
 * The finder's statements for the user's rejections, each built once: `kept_apart` (a, b) both ways round, and
 * `closes_rejected` (id, version, at). Pairs and dated facts are then left out by equality, a hash each.
 */
export function rejectedChangeStatements(userId: string): SQL {
  return sql`,
    merge_named as materialized (${mergeNamed(userId)}),
    kept_apart as materialized (
      select distinct x.id as a, y.id as b from merge_named x join merge_named y on y.proposal = x.proposal and y.id <> x.id
    ),
    closes_rejected as materialized (${closesRejected(userId)})`;
}

/** Whether the user rejected closing memory `id` (an expiry: of the memory at `version`). */
export function closeRejectedAt(userId: string, id: SQL, version: SQL): SQL {
  return sql`exists (select 1 from (${closesRejected(userId)}) c where c.id = ${id} and c.version = ${version})`;
}

type Shown = { id: string; version: number };

/**
 * The members of a merge the user kept apart from the standing memory or from a member kept before them, and the
 * proposal that did: a merge goes on with the others.
 */
export async function keptApartInMerge(
  ctx: MemoryContext,
  into: Shown,
  from: Shown[],
): Promise<{ dropped: Set<string>; proposal: string | null }> {
  const ids = [into, ...from].map((entry) => entry.id);
  const rows = await asUser(ctx, (unit) =>
    unit.rows<{ a: string; b: string; proposal: string }>(sql`
      with merge_named as (${mergeNamed(ctx.principal.userId)})
      select x.id::text as a, y.id::text as b, x.proposal::text as proposal
      from merge_named x join merge_named y on y.proposal = x.proposal and y.id <> x.id
      where x.id = any(${textArray(ids)}::uuid[]) and y.id = any(${textArray(ids)}::uuid[])`),
  );
  const kept = new Set([into.id]);
  const dropped = new Set<string>();
  let proposal: string | null = null;
  for (const member of from) {
    const apart = rows.find((row) => row.a === member.id && kept.has(row.b));
    if (apart) {
      dropped.add(member.id);
      proposal ??= apart.proposal;
    } else kept.add(member.id);
  }
  return { dropped, proposal };
}

/**
 * The memories of a close the user kept standing, and the proposal that did: for a supersede, a close rejected since
 * the superseding memory last changed; for an expiry, one rejected at the version shown.
 */
export async function keptStandingInClose(
  ctx: MemoryContext,
  ids: Shown[],
  supersededBy: { updatedAt: Date } | undefined,
): Promise<{ dropped: Set<string>; proposal: string | null }> {
  const rows = await asUser(ctx, (unit) =>
    unit.rows<{ id: string; version: number; at: Date | string; proposal: string }>(sql`
      select c.id::text as id, c.version, c.at, c.proposal::text as proposal
      from (${closesRejected(ctx.principal.userId)}) c
      where c.id = any(${textArray(ids.map((entry) => entry.id))}::uuid[])`),
  );
  const standing = rows.filter((row) =>
    supersededBy
      ? new Date(row.at).getTime() >= supersededBy.updatedAt.getTime()
      : ids.some((entry) => entry.id === row.id && entry.version === row.version),
  );
  return { dropped: new Set(standing.map((row) => row.id)), proposal: standing[0]?.proposal ?? null };
}

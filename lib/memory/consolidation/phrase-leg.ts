import { type SQL, sql } from "drizzle-orm";

// The phrase leg of the candidate finder (lib/memory/consolidation/candidates.ts, docs/memory-model.md,
// "Consolidation"): two memories that name one thing in the same few words, whatever else they say.

/**
 * Memories of one namespace and kind at most that may hold a phrase for it to pair them: a restated fact repeats the
 * words of what it is about ("sailing small boats", "sourdough bread"), which few of a user's other memories hold; a
 * phrase many hold ("works as", "loves hiking") says what kind of fact it is, not which.
 */
export const PHRASE_HOLDERS = 4;

/**
 * The `phrases` of each live memory: each two neighbouring words of its English lexical vector (stems, stop words left
 * out, so "hiking in the mountains" gives "hike mountain"), in either order ("mountain hikes" gives it too), "user"
 * left out, and the `rare` ones, held by two to PHRASE_HOLDERS memories of one namespace and kind, each with its
 * holders' ids and versions in id order. Not the stored memories.fts: it appends negations after the last word, which
 * would make phrases no text holds.
 */
export const phraseStatements = sql`,
    phrases as (
      select distinct l.id, l.version, l.namespace, l.kind,
        least(w.lexeme, w.next) || ' ' || greatest(w.lexeme, w.next) as phrase
      from live l
      cross join lateral (
        select u.lexeme, lead(u.lexeme) over (order by p.at) as next
        from unnest(to_tsvector('english', l.text)) as u(lexeme, positions, weights)
        cross join lateral unnest(u.positions) as p(at)
      ) w
      where w.next is not null and w.lexeme <> w.next and w.lexeme <> 'user' and w.next <> 'user'
    ),
    rare as (
      select array_agg(id order by id) as ids, array_agg(version order by id) as versions from phrases
      group by namespace, kind, phrase
      having count(*) between 2 and ${PHRASE_HOLDERS}
    )`;

/**
 * Pairs of live memories holding one rare phrase, for the model to judge as it judges those close in meaning: read
 * off each phrase's few holders, with no join, so no plan can compare every phrase with every other (a join on the
 * phrase, planned for one rare phrase, took 23 s over 2,000 memories; docs/performance.md, "Memory hygiene").
 */
export function phraseLeg(): SQL {
  return sql`
      union
      select r.ids[i], r.versions[i], r.ids[j], r.versions[j], 'close' from rare r
      cross join lateral generate_subscripts(r.ids, 1) as i
      cross join lateral generate_subscripts(r.ids, 1) as j
      where i < j`;
}

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
 * left out, and the `rare` ones, held by two to PHRASE_HOLDERS memories of one namespace and kind. Not the stored
 * memories.fts: it appends negations after the last word, which would make phrases no text holds. Each is an equality
 * join on the phrase, never all pairs.
 */
export const phraseStatements = sql`,
    phrases as (
      select l.id, l.namespace, l.kind, least(w.lexeme, w.next) || ' ' || greatest(w.lexeme, w.next) as phrase
      from live l
      cross join lateral (
        select u.lexeme, lead(u.lexeme) over (order by p.at) as next
        from unnest(to_tsvector('english', l.text)) as u(lexeme, positions, weights)
        cross join lateral unnest(u.positions) as p(at)
      ) w
      where w.next is not null and w.lexeme <> w.next and w.lexeme <> 'user' and w.next <> 'user'
    ),
    rare as (
      select namespace, kind, phrase from phrases
      group by namespace, kind, phrase
      having count(distinct id) between 2 and ${PHRASE_HOLDERS}
    )`;

/** Pairs of live memories holding one rare phrase, for the model to judge as it judges those close in meaning. */
export function phraseLeg(): SQL {
  return sql`
      union
      select a.id, a.version, b.id, b.version, 'close' from rare r
      join phrases pa on pa.namespace = r.namespace and pa.kind = r.kind and pa.phrase = r.phrase
      join phrases pb on pb.namespace = r.namespace and pb.kind = r.kind and pb.phrase = r.phrase and pa.id < pb.id
      join live a on a.id = pa.id
      join live b on b.id = pb.id`;
}

import { type SQL, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/client";
import { memories } from "@/lib/db/schema";
import type { UnitOfWork } from "@/lib/db/unit-of-work";
import { intArray, textArray } from "@/lib/memory/core";
import { irregularFormsIn, possibleTypos } from "./english";
import { lexemesOfWords } from "./word-lexemes";
import { relatedWordsIn } from "./wordnet";

/** BM25's term-frequency saturation, the usual value. */
const K1 = 1.2;
/**
 * How much a memory's length discounts its matches. Memories are a sentence or two, and the longer ones are more
 * often the ones that state something (a fact told in a conversation, next to "haha, same here"): with the usual 0.75
 * for documents, recall@10 on the bench's conversational set without speaker names was about 3 points lower.
 */
const B = 0.3;
/** A corrected word is a guess: it counts this much of an exact one. */
const CORRECTED_WEIGHT = 0.5;
/**
 * Other forms of the query's irregular words ("saw" for "see") per query, at most. Those of stop words ("was": is,
 * are, been…) count towards it and match nothing.
 */
const MAX_FORMS = 24;
/**
 * A synonym or narrower noun counts this much of the query's own word ("cello" for "instrument"): chosen on the
 * bench's conversational sets, where questions ask in the general word (recall@10 with names 67.5% at 0.4, 69.8% at
 * 0.6, 71.4% at 0.8, 70.9% at 1.0: at full weight a related word ties the query's own).
 */
const RELATED_WEIGHT = 0.8;
/** Minimum pg_trgm word similarity between a misspelt word and a vocabulary word ("nurce" ~ "nurse"). */
export const TYPO_THRESHOLD = 0.35;
/** Misspelt words corrected per query: a long pasted paragraph should not fan out into dozens of lookups. */
const MAX_TYPOS = 6;
/** Full-text terms per query: a whole pasted message still ranks by a bounded number of terms. */
const MAX_TERMS = 32;
/**
 * A related noun brings in candidates only below this share of the user's memories (or this many): a rare one is
 * what a question in general words is after, a common one would bring in much of the corpus at 0.8 weight.
 */
const RELATED_PROBE_SHARE = 0.02;
const RELATED_PROBE_MIN_DOCS = 50;
/** Synonyms and narrower nouns the user wrote, per query, at most (the nearest kept). */
const MAX_RELATED_TERMS = 32;
/**
 * A term held by more than this share of the user's memories (their name, "user", "want") does not bring in
 * candidates on its own: it would add a large part of the corpus for a small weight. It still scores the candidates
 * rarer terms find. At 0.3 a question like "how do I want replies" scored 2,400 of 10,000 memories for the few that
 * say "replies"; at 0.1 recall@10 was the same on all three bench sets and search p95 at 10,000 memories halved.
 */
const COMMON_SHARE = 0.1;
/**
 * The confidence's coverage (confidence.ts) weighs a query word by its rarity as if the user had this many more
 * memories, none holding it: in a handful of memories a word in all of them would weigh next to nothing against the
 * query's words in none ("which tea do I drink?" over two memories about tea), though it is what they are about.
 */
const COVERAGE_PRIOR_DOCS = 100;
/** Below this many memories holding it, a term is never too common to bring in candidates: cost is no concern. */
const COMMON_MIN_DOCS = 500;

/*
 * The lexical score is BM25 over the user's own corpus divided by the most the query's terms could score in it
 * (every one matched exactly, so often that its frequency saturates): in [0, 1). A corrected word counts half; another
 * form of an irregular word counts as the word, once per memory however many of its forms the memory holds; a related
 * noun counts 0.8 of the word it stands for, with that word's rarity at most, once per memory likewise.
 */

/** A constant of the ranking, written into its text (the same for every search, so it stays one statement). */
const number = (value: number) => sql.raw(`${value.toFixed(6)}::float8`);

/**
 * The statement ranking the caller's memories in `scope` for `query` by BM25 with the user's own statistics
 * (memory_lexemes, memory_corpus): a term's weight is its rarity among *their* memories, term frequency saturates,
 * long memories are normalised. Query words that are neither English nor in the user's vocabulary are read as typos
 * and replaced by the closest vocabulary word, at half weight; the other forms of irregular verbs and nouns ("bought"
 * for "buy", "children" for "child") stand for the query's own form; a noun's synonyms and narrower nouns in WordNet
 * that the user wrote ("cello" for "instrument") stand for it at 0.8. Candidates come from the full-text index leading
 * with the user, so the cost follows the matches. One statement (terms, statistics and ranking), so a search costs one
 * round trip, and one more in `unit` the first time this process meets a noun, to stem its related words
 * (word-lexemes.ts); its rows are `id` and `score` (in [0, 1), see above), at most `pool`, best first, ties by
 * recency, then id. No rows when the query has no terms (stop words only).
 */
export async function lexicalRanking(
  database: Database,
  unit: UnitOfWork,
  scope: SQL,
  query: string,
  pool: number,
): Promise<SQL> {
  const userId = unit.userId;
  const related = await relatedLexemes(database, unit, query);
  return sql`
    with ${queryTerms(userId, query, related)},
    corpus as (
      select greatest(coalesce(max(c.docs), 0), 1)::float8 as docs,
             greatest(coalesce(max(c.lexemes), 0)::float8 / greatest(coalesce(max(c.docs), 0), 1), 1) as avgdl
      from memory_corpus c where c.user_id = ${userId}::uuid
    ), statistics as (
      select t.lexeme, t.stands_for, t.weight, coalesce(l.docs, 0) as df,
             ln(1 + (corpus.docs - coalesce(l.docs, 0) + 0.5) / (coalesce(l.docs, 0) + 0.5)) as idf,
             -- The coverage's rarity (confidence.ts): as if COVERAGE_PRIOR_DOCS more memories lacked the word.
             ln(1 + (corpus.docs + ${COVERAGE_PRIOR_DOCS} - coalesce(l.docs, 0) + 0.5) / (coalesce(l.docs, 0) + 0.5))
               as rarity
      from terms t cross join corpus
      left join memory_lexemes l on l.user_id = ${userId}::uuid and l.lexeme = t.lexeme
    ), weighted as (
      -- A word standing for a query term tells at most as much as the term: "tool" for "instrument" is no rarer a hit.
      select s.lexeme, s.stands_for, s.weight, s.df, s.rarity,
             case when s.lexeme = s.stands_for then s.idf
                  else least(s.idf, coalesce((select o.idf from statistics o
                                              where o.lexeme = s.stands_for and o.stands_for = s.stands_for), s.idf))
             end as idf
      from statistics s
    ), rare as (
      select w.lexeme from weighted w cross join corpus
      where w.df > 0 and (w.df <= ${number(COMMON_SHARE)} * corpus.docs or w.df <= ${COMMON_MIN_DOCS})
        -- A related word brings in candidates only when it is rare among the user's memories ("cello", not "place"
        -- for "home"): it still scores what the query's own words bring in.
        and (w.weight >= 1 or w.lexeme = w.stands_for
             or w.df <= ${number(RELATED_PROBE_SHARE)} * corpus.docs or w.df <= ${RELATED_PROBE_MIN_DOCS})
    ), probe as (
      -- Rare terms bring in the candidates; if none is (all common, or in no active memory: a search of tombstones),
      -- all of them do.
      select string_agg(${tsqueryOperand(sql`p.lexeme`)}, ' | ')::tsquery as q
      from (select distinct lexeme from (select lexeme from rare union all
            select lexeme from weighted where not exists (select 1 from rare)) r) p
    )
    -- Rounded, so that scores equal but for the order their parts were added in tie, and recency decides.
    select matched.id,
           round((sum(matched.best) / (select sum(idf) * ${number(K1 + 1)} from weighted where lexeme = stands_for))::numeric,
                 12)::float8 as score,
           -- The query's words the memory holds, each by its rarity, a word held only through an expansion at that
           -- expansion's weight: the confidence's lexical signal (confidence.ts).
           round((sum(matched.weight * coalesce(own.rarity, 0))
                  / (select sum(rarity) from weighted where lexeme = stands_for))::numeric, 12)::float8 as coverage,
           round((sum(case when matched.weight >= 1 then coalesce(own.rarity, 0) else 0 end)
                  / (select sum(rarity) from weighted where lexeme = stands_for))::numeric, 12)::float8 as exact,
           (select docs from corpus) as memories
    from (
      -- Per query term, its best form in the memory: a memory holding both "see" and "saw" matched "see" once.
      select ${memories.id} as id, ${memories.updatedAt} as updated_at, w.stands_for, max(w.weight) as weight,
             max(w.weight * w.idf * f.tf * ${number(K1 + 1)}
                 / (f.tf + ${number(K1)} * (${number(1 - B)}
                    + ${number(B)} * length(${memories.fts}) / (select avgdl from corpus)))) as best
      -- The user's memories through own_memories (migration 0026): under row-level security the full-text match
      -- below could not use the index, and the scan would read all of them.
      from own_memories as ${memories}
      cross join lateral (
        -- Only the memory's lexemes among the terms: marked (setweight) and kept (ts_filter) inside the vector, so
        -- a memory of twenty words does not become twenty rows to join.
        select u.lexeme, coalesce(array_length(u.positions, 1), 1)::float8 as tf
        from unnest(ts_filter(setweight(${memories.fts}, 'A', (select array_agg(lexeme) from weighted)), '{a}')) as u
      ) f
      join weighted w on w.lexeme = f.lexeme
      where ${scope} and ${memories.fts} @@ (select q from probe)
      group by ${memories.id}, ${memories.updatedAt}, w.stands_for
    ) matched
    left join weighted own on own.lexeme = matched.stands_for and own.stands_for = matched.stands_for
    group by matched.id, matched.updated_at
    order by score desc, matched.updated_at desc, matched.id
    limit ${pool}`;
}

/**
 * The query's full-text lexemes with their weights and the query term each stands for (`terms`), read as memories are
 * (memory_fts, migration 0025: English lexemes plus negations and "now"): its own lexemes; for each word that is
 * neither English nor the user's own, the lexemes of the closest word the user did write (`<%` at the threshold the
 * caller set for this transaction), standing in for the misspelling; the other forms of its irregular words; and the
 * synonyms and narrower nouns of its nouns (wordnet.ts) that the user's memories hold, the nearest first.
 */
function queryTerms(userId: string, query: string, related: RelatedLexemes): SQL {
  const typos = possibleTypos(query).slice(0, MAX_TYPOS);
  const corrections =
    typos.length === 0
      ? sql`select null::text as word, null::text as term where false`
      : sql`
        select typo.word, near.term
        from unnest(${textArray(typos)}) as typo(word)
        cross join lateral (
          select v.term from memory_terms v
          where v.user_id = ${userId}::uuid and typo.word <% v.term
          order by similarity(typo.word, v.term) desc, v.term
          limit 1
        ) near
        where not exists (select 1 from memory_terms k where k.user_id = ${userId}::uuid and k.term = typo.word)`;
  const irregular = irregularFormsIn(query).slice(0, MAX_FORMS);
  return sql`
    correction as (${corrections}),
    own as (
      -- A misspelling stands in the query only through its correction.
      select lexeme from unnest(tsvector_to_array(memory_fts(${query}))) as lexeme
      where lexeme not in (
        select l from correction cross join lateral unnest(tsvector_to_array(memory_fts(correction.word))) as l
      )
    ), nouns as materialized (
      select n.place, mine.lexeme from unnest(${textArray(related.nouns)}) with ordinality as n(word, place)
      cross join lateral unnest(tsvector_to_array(memory_fts(n.word))) as mine(lexeme)
      where mine.lexeme in (select lexeme from own)
    ), related as (
      select n.lexeme as stands_for, r.lexeme, r.nearness
      from unnest(${intArray(related.noun)}, ${textArray(related.lexemes)}, ${intArray(related.nearness)})
        as r(noun, lexeme, nearness)
      join nouns n on n.place = r.noun
    ), candidates as (
      -- nearness: 0 for the query's own words, their corrections and forms; n for the n-th word a noun stands for.
      select lexeme, lexeme as stands_for, ${sql.raw(CORRECTED_WEIGHT.toFixed(2))}::float8 as weight, 0 as nearness
      from correction cross join lateral unnest(tsvector_to_array(memory_fts(correction.term))) as lexeme
      union all
      select lexeme, lexeme, 1.0::float8, 0 from own
      union all
      -- Another form of an irregular word stands for the query's own, as fully as the stemmer's forms do: "saw" for
      -- "see", as "watched" for "watch".
      select other.lexeme, mine.lexeme, 1.0::float8, 0
      from unnest(${textArray(irregular.map((pair) => pair.word))}, ${textArray(irregular.map((pair) => pair.form))})
        as pair(word, form)
      cross join lateral unnest(tsvector_to_array(memory_fts(pair.word))) as mine(lexeme)
      cross join lateral unnest(tsvector_to_array(memory_fts(pair.form))) as other(lexeme)
      where other.lexeme <> mine.lexeme and mine.lexeme in (select lexeme from own)
      union all
      -- A noun's synonyms and narrower nouns ("cello" for "instrument"), nearest first, that the user wrote.
      select r.lexeme, r.stands_for, ${sql.raw(RELATED_WEIGHT.toFixed(2))}::float8, r.nearness
      from related r
      where r.lexeme not in (select lexeme from own)
        and exists (select 1 from memory_lexemes l where l.user_id = ${userId}::uuid and l.lexeme = r.lexeme and l.docs > 0)
    ), terms as (
      (select lexeme, stands_for, max(weight) as weight from candidates where nearness = 0
       group by lexeme, stands_for order by max(weight) desc, lexeme, stands_for limit ${MAX_TERMS})
      union all
      (select lexeme, stands_for, max(weight) from candidates where nearness > 0
       group by lexeme, stands_for order by min(nearness), lexeme, stands_for limit ${MAX_RELATED_TERMS})
    )`;
}

/**
 * The query's nouns, and the lexemes of the words they stand for (relatedWordsIn), each with its noun and nearness: a
 * lexeme once per noun, where it is nearest.
 */
interface RelatedLexemes {
  nouns: string[];
  /** The lexeme's noun, by its place in `nouns` (from 1). */
  noun: number[];
  lexemes: string[];
  /** n for the n-th word its noun stands for. */
  nearness: number[];
}

async function relatedLexemes(database: Database, unit: UnitOfWork, query: string): Promise<RelatedLexemes> {
  const related = relatedWordsIn(query);
  const lexemesOf = await lexemesOfWords(
    database,
    unit,
    related.flatMap((entry) => entry.words),
  );
  const result: RelatedLexemes = { nouns: [], noun: [], lexemes: [], nearness: [] };
  for (const { word, words } of related) {
    result.nouns.push(word);
    const seen = new Set<string>();
    for (const [index, other] of words.entries()) {
      for (const lexeme of lexemesOf(other)) {
        if (seen.has(lexeme)) continue;
        seen.add(lexeme);
        result.noun.push(result.nouns.length);
        result.lexemes.push(lexeme);
        result.nearness.push(index + 1);
      }
    }
  }
  return result;
}

/** A lexeme as a quoted tsquery operand, its backslashes and quotes escaped. */
function tsqueryOperand(lexeme: SQL): SQL {
  // chr(92) is a backslash, chr(39) a quote: both doubled inside the quotes.
  return sql`chr(39) || replace(replace(${lexeme}, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39)`;
}

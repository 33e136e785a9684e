// The candidate finder (docs/memory-model.md, "Consolidation"): what a consolidation run shows the model and what the
// memory health card counts come from these statements alone, so "what the pass would fix" and "what the card shows"
// cannot disagree. Each statement names one user on every table it reads, so Citus runs it on that user's shard.

import { type SQL, sql } from "drizzle-orm";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { type MemoryContext, textArray } from "@/lib/memory/core";
import { type UserRejections, userRejections } from "@/lib/memory/review";
import { embeddingModelKey } from "@/lib/memory/search";
import { MAY_NAME_A_PLACE } from "@/lib/text/place-names";
import { MAY_NAME_A_JOB } from "@/lib/text/slot-kinds";
import { comparableValue, FIXED_SLOT_PATTERNS, MANY_VALUED_PATTERN, slotOf } from "@/lib/text/slots";
import { MAY_HOLD_A_HOME, MAY_HOLD_A_JOB, STANDING_SLOT_KEYS, standingValueOf } from "@/lib/text/standing-values";
import { isBeginning, isPlannedEvent, isRecurringDay } from "@/lib/text/word-kinds";
import { isMostlyAdjective } from "@/lib/text/wordnet";
import { type ClosePair, closeLeg, closePairs } from "./close-leg";
import { keptApartStatement, keptStanding, notKept } from "./kept-by-the-user";
import { nearIdentical, trigramSignature } from "./near-identical";
import { phraseLeg, phraseStatements } from "./phrase-leg";

/** Memories shown to the model in one group at most; a larger cluster is cut into groups of this size. */
export const GROUP_SIZE = 8;

/**
 * Words that make a dated fact time-bound (a trip, an appointment, a stay until a date): once its date has passed it no
 * longer holds. A date alone does not ("born on 1990-05-01" stays true), nor does a word of the future alone ("will
 * retire on …"). Besides these, a noun of an event one goes to (WordNet: "has tickets for a concert on …";
 * isPlannedEvent in lib/text/word-kinds.ts) makes a fact time-bound (timeBound).
 */
const TIME_BOUND =
  /\b(?:trip|travel|travelling|traveling|visit|visiting|meeting|appointment|flight|flying|deadline|event|conference|interview|holiday|vacation)\b/i;
const ISO_DATE = "(\\d{4}-\\d{2}-\\d{2})";

/**
 * "duplicate": the same words or near-identical text; "slot": one subject, another value; "close": near in meaning by
 * the vector index, one rare phrase, or one opening of facts that accumulate ("User has a dog …" / "User has a cat …",
 * lib/text/slots.ts MANY_VALUED), for the model to judge (the memory health card does not count these).
 */
export type Relation = "duplicate" | "slot" | "close";

export interface CandidatePair {
  a: string;
  b: string;
  relation: Relation;
}

export interface CandidateMemory {
  id: string;
  version: number;
  namespace: string[];
  kind: string;
  text: string;
  createdAt: Date;
  validFrom: Date | null;
  validTo: Date | null;
  quote: string | null;
  /** Who wrote the memory's latest version: a person's edit changes only through a proposal. */
  lastChangedBy: string;
}

export interface CandidateGroup {
  memories: CandidateMemory[];
  pairs: CandidatePair[];
  /** Members whose text names a date that has passed in a time-bound fact, with that date (YYYY-MM-DD). */
  dated: Array<{ id: string; date: string }>;
}

/** The pass's memory as the statements read it: active, not past its validTo, its text readable. */
const live = (alias: string, today: string) =>
  sql.raw(
    `${alias}.status = 'active' and ${alias}.purged_at is null and ${alias}.text is not null and (${alias}.valid_to is null or ${alias}.valid_to > '${today}'::timestamptz)`,
  );

/** The first three words, lower-cased, "the user" read as "user": what the fact is about, when it has a value after. */
const subject = (alias: string) =>
  sql.raw(
    `array_to_string((regexp_split_to_array(regexp_replace(lower(btrim(${alias}.text)), '^the user\\M', 'user'), '\\s+'))[1:3], ' ')`,
  );
const wordCount = (alias: string) => sql.raw(wordCountOf(alias));

/** The last two words, lower-cased, without punctuation: restatements of one fact tend to end alike. */
const tail = (alias: string) =>
  sql.raw(
    `array_to_string((regexp_split_to_array(regexp_replace(lower(btrim(${alias}.text)), '[^[:alnum:][:space:]'']+', '', 'g'), '\\s+'))[greatest(1, ${wordCountOf(alias)} - 1):], ' ')`,
  );
/** The text as the slot table reads it (lib/text/slots.ts, normalize): lower case, "the user" as "user", no end stop. */
const slotText = (alias: string) =>
  sql.raw(
    `regexp_replace(regexp_replace(regexp_replace(replace(lower(btrim(${alias}.text)), '’', ''''), '^the user\\y', 'user'), '[.!?]+$', ''), '\\s+', ' ', 'g')`,
  );
/** The fixed slot the normalized text `n.n` fills ("residence", "job"…); null when none. */
const fixedSlot = sql`case ${sql.join(
  FIXED_SLOT_PATTERNS.map(({ key, pattern }) => sql`when n.n ~ ${pattern} then ${key}`),
  sql` `,
)} end`;

function wordCountOf(alias: string): string {
  return `array_length(regexp_split_to_array(btrim(${alias}.text), '\\s+'), 1)`;
}

/**
 * Pairs of the user's live memories of one namespace and kind that say the same (same content hash, or trigram
 * similarity ≥ DUPLICATE_SIMILARITY between memories ending in the same two words, near-identical.ts), fill the same
 * subject slot with another value (same first three words, a value after them, or one fixed slot however it is
 * worded, as `slots` says lib/text/slots.ts reads it: "lives in Lisbon", "moved to Porto", "is a nurse by trade"), or,
 * when a run found `close` pairs by their vectors, are near in meaning (close-leg.ts); memories that hold one phrase
 * few others hold are shown together too (phrase-leg.ts). Each lexical leg is an equality join, so a user's memories
 * are paired within those blocks, never all with all. A pair a succeeded run already judged and kept apart at these
 * versions is not a candidate, nor what the user kept by rejecting a change (kept-by-the-user.ts).
 */
function pairsStatement(
  userId: string,
  now: Date,
  slots: SlottedMemory[],
  close: readonly ClosePair[] | null,
  judged: boolean,
  kept: UserRejections,
): SQL {
  const today = now.toISOString();
  // The legs only a model judges (close, one phrase): a run finds them, the health card does not count them.
  const leg = sql`${judged ? phraseLeg() : sql``}${close ? closeLeg(close) : sql``}`;
  return sql`
    with slotted as (
      select * from unnest(${textArray(slots.map((slot) => slot.id))}, ${textArray(slots.map((slot) => slot.key))},
        ${textArray(slots.map((slot) => slot.value))}, ${textArray(slots.map((slot) => String(slot.fixed)))}::boolean[])
        as s(id, key, value, fixed)
    ),
    normalized as (
      select m.id, m.version, m.namespace, m.kind, m.text, m.content_hash, coalesce(m.valid_from, m.created_at) as since,
        ${slotText("m")} as n
      from memories m
      where m.user_id = ${userId} and ${live("m", today)}
    ),
    shaped as (
      select n.*, ${subject("n")} as subject, ${tail("n")} as tail, ${wordCount("n")} as words,
        sl.key as slot_key, sl.value as slot_value
      from normalized n
      left join slotted sl on sl.id = n.id::text
    ),
    live as (
      select b.*, g.trigrams, g.signature
      from (
        select s.*, count(*) over (partition by s.namespace, s.kind, s.tail) as ending_alike,
          count(*) over (partition by s.namespace, s.kind, s.subject) as opening_alike
        from shaped s) b
      -- Only memories the near-identical check can compare get a signature: those of a block of one ending or one
      -- opening with another member (near-identical.ts).
      cross join lateral (${trigramSignature("b", "b.ending_alike > 1 or b.opening_alike > 1")}) g
    )${judged ? phraseStatements : sql``}${keptApartStatement(kept)},
    paired as (
      select a.id as a, a.version as av, b.id as b, b.version as bv, 'duplicate' as relation from live a
      join live b on b.namespace = a.namespace and b.kind = a.kind and b.content_hash = a.content_hash and a.id < b.id
      union
      select a.id, a.version, b.id, b.version, case when ${valuesDiffer} then 'slot' else 'duplicate' end from live a
      join live b on b.namespace = a.namespace and b.kind = a.kind and b.tail = a.tail and a.id < b.id
      where ${nearIdentical("a", "b")}
      union
      select a.id, a.version, b.id, b.version,
        case when a.content_hash = b.content_hash then 'duplicate' when ${valuesDiffer} then 'slot'
          when ${nearIdentical("a", "b")} then 'duplicate'
          when a.n ~ ${MANY_VALUED_PATTERN} or b.n ~ ${MANY_VALUED_PATTERN} then 'close'
          else 'slot' end
      from live a
      join live b on b.namespace = a.namespace and b.kind = a.kind and b.subject = a.subject and a.id < b.id
      where a.words > 3 and b.words > 3
      union
      select a.id, a.version, b.id, b.version,
        case when a.content_hash = b.content_hash or sa.value = sb.value then 'duplicate' else 'slot' end
      from slotted sa
      join slotted sb on sb.key = sa.key and sa.fixed and sa.id < sb.id
      join live a on a.id::text = sa.id
      join live b on b.id::text = sb.id and b.namespace = a.namespace and b.kind = a.kind and a.id < b.id${leg}
    )
    select distinct on (p.a, p.b) p.a, p.b, p.relation
    from paired p
    join live la on la.id = p.a
    join live lb on lb.id = p.b
    where not exists (
      select 1 from consolidation_runs r
      where r.user_id = ${userId} and r.status = 'succeeded' and r.reverted_at is null
        and r.groups @> jsonb_build_array(jsonb_build_object('kept', jsonb_build_array(
              jsonb_build_object('id', p.a, 'version', p.av),
              jsonb_build_object('id', p.b, 'version', p.bv)))))
      and ${notKept(kept)}
    order by p.a, p.b, case p.relation when 'duplicate' then 0 when 'slot' then 1 else 2 end`;
}

/** Live memories `a` and `b` give one slot two values: a conflict, however alike their words ("… blue" / "… green"). */
const valuesDiffer = sql`coalesce(a.slot_key = b.slot_key and a.slot_value <> b.slot_value, false)`;

/** The slots the finder pairs: the fixed ones ("residence", "job"…), not the open "attribute:…" and "choice:…". */
const FIXED_KEYS = new Set(FIXED_SLOT_PATTERNS.map((rule) => rule.key));

/** A memory and the slot it fills, as lib/text/slots.ts reads its text. */
interface SlottedMemory {
  id: string;
  key: string;
  value: string;
  /** A slot the finder pairs on (FIXED_KEYS, or a home or job read by its kind); an open one only tells values apart. */
  fixed: boolean;
}

/**
 * Memories the slot readers read once they are put as a statement about the user (lib/text/user-statement.ts): those
 * that do not open with the user ("Lives in Porto", "Location: Porto") are read in TypeScript whole; of those that do,
 * the ones that may report what the user said ("User mentioned (that) they…", "…mentioned living in…").
 */
const MAY_BE_REPORTED = "^user [a-z]+ (that |they |he |she |[a-z]+ing )";

/** The open slots' shapes (lib/text/slots.ts): "User's favourite colour is …", "User prefers … over …". */
const MAY_FILL_AN_OPEN_SLOT = "^user('s .+ (is|are) | prefers )";

/**
 * The user's live memories that fill a slot: the table's patterns and the shapes of the rules read by grammar and
 * WordNet (MAY_NAME_A_JOB, MAY_NAME_A_PLACE: each a superset of what its rule reads) pick them in SQL, and `slotOf`
 * decides in TypeScript, so the finder pairs "User is a nurse by trade" with "User started a new job as a teacher" as
 * the offline model does. An open slot is read too: it pairs nothing, but tells apart near-identical texts of two
 * values (valuesDiffer).
 */
async function slottedMemories(unit: UnitOfWork, userId: string, now: Date): Promise<SlottedMemory[]> {
  const rows = await unit.rows<{ id: string; text: string }>(sql`
    select n.id::text as id, n.text from (
      select m.id, m.text, ${slotText("m")} as n from memories m
      where m.user_id = ${userId} and ${live("m", now.toISOString())}) n
    where ${fixedSlot} is not null or n.n ~ ${MAY_NAME_A_JOB} or (n.n ~ '^(the )?user\\s' and n.text ~ ${MAY_NAME_A_PLACE})
      or (n.n ~ '^(the )?user' and (n.n ~ ${MAY_HOLD_A_JOB} or n.text ~ ${MAY_HOLD_A_HOME}))
      or n.n !~ '^(the )?user' or n.n ~ ${MAY_BE_REPORTED} or n.n ~ ${MAY_FILL_AN_OPEN_SLOT}`);
  return rows.flatMap((row): SlottedMemory[] => {
    const slot = slotOf(row.text);
    const of = (key: string, value: string, fixed: boolean) => [
      { id: row.id, key, value: comparableValue(value), fixed },
    ];
    if (slot && FIXED_KEYS.has(slot.key)) return of(slot.key, slot.value, true);
    // A home or a job read by its kind, however it is worded ("signed the lease on a flat in Porto").
    const standing = standingValueOf(row.text);
    if (standing) return of(STANDING_SLOT_KEYS[standing.kind], standing.value, true);
    return slot ? of(slot.key, slot.value, false) : [];
  });
}

/**
 * The user's live memories (not those kept standing) naming a date before today that no validTo says has ended, with
 * their text and whether each was written before that date: timeBound decides in TypeScript which are time-bound.
 */
function datedStatement(userId: string, now: Date, kept: UserRejections): SQL {
  const today = now.toISOString();
  const day = today.slice(0, 10);
  // The last date the text names: a stay "from … until …" holds until its end.
  return sql`
    select m.id as id, d.date, m.text as text,
      to_char(coalesce(m.valid_from, m.created_at) at time zone 'UTC', 'YYYY-MM-DD') < d.date as "aheadOfIt"
    from memories m
    cross join lateral (select max(found[1]) as date from regexp_matches(m.text, ${ISO_DATE}, 'g') as found) d
    where m.user_id = ${userId} and ${live("m", today)} and m.valid_to is null
      and d.date < ${day}
      and not exists (
        select 1 from consolidation_runs r
        where r.user_id = ${userId} and r.status = 'succeeded' and r.reverted_at is null
          and r.groups @> jsonb_build_array(jsonb_build_object('kept', jsonb_build_array(
                jsonb_build_object('id', m.id, 'version', m.version)))))
      and not ${keptStanding(kept, sql`m.id`)}`;
}

/**
 * Whether a dated fact is time-bound, so that its last date passing ends it: only one written before its date. Said of
 * a day still to come it was a plan; said after ("met their partner at a conference on …", "lived in Porto until …",
 * "was born on …") it is a past fact, which stays. A stay "until" a date ends then; a plan ends with its day when it is
 * an appointment, a trip or an event one goes to (TIME_BOUND's events, a noun WordNet puts under one), or a journey to
 * a place ("User's train to Ghent leaves on …", "is off to Lisbon on …"). Never what lasts once its day comes: a
 * beginning ("starts at Acme on …", "will move to Porto on …": isBeginning in lib/text/word-kinds.ts) or a move "for
 * good", nor a day that comes back every year ("birthday", "anniversary") but for a journey or event on it, nor a
 * future said of anything else ("will retire on …").
 */
function timeBound(row: { text: string; aheadOfIt: boolean }): boolean {
  const words = row.text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.some((word, at) => isBeginning(word) && asAVerb(words, at)) || LASTING.test(row.text)) return false;
  if (!row.aheadOfIt) return false;
  if (UNTIL.test(row.text)) return true;
  // A habit ("a team meeting every Monday") or what holds from a day on is no plan of one day.
  if (HABIT.test(row.text) || FROM_A_DAY.test(row.text)) return false;
  if (TIME_BOUND.test(row.text) || words.some(isPlannedEvent)) return true;
  return !words.some(isRecurringDay) && TO_A_PLACE.test(row.text);
}

/**
 * Whether a word of beginning stands as a verb: inflected ("moving", "starts"), or bare after a subject, "to" or
 * "will" ("will open"). A bare word mostly an adjective elsewhere is not one: "light" in "wants help packing light" is
 * WordNet's "begin to burn" only as a verb.
 */
function asAVerb(words: string[], at: number): boolean {
  const word = words[at]!;
  if (/(?:s|ed|ing)$/.test(word) || !isMostlyAdjective(word)) return true;
  return /^(?:to|will|user|they|he|she|i|we)$/.test(words[at - 1] ?? "");
}

/** "to" before a capitalised word: a way to a place ("off to Lisbon"). */
const TO_A_PLACE = /\bto\s+\p{Lu}/u;
/** Words that say a change lasts. */
const LASTING = /\b(?:for good|permanent(?:ly)?)\b/i;
const UNTIL = /\buntil\b/i;
/**
 * How often: "every …", "daily", "on Tuesdays", "weekends". Not standing-values' reading of a time that recurs (any
 * plural time period): that one reads the verb "leaves" ("User's train … leaves on …") as periods of leave.
 */
const HABIT =
  /\b(?:every|daily|weekly|fortnightly|monthly|nightly|(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends|each (?:day|week|month|(?:mon|tues|wednes|thurs|fri|satur|sun)day))\b/i;
const FROM_A_DAY = /\bfrom \d{4}-\d{2}-\d{2}/i;

export interface Candidates {
  pairs: CandidatePair[];
  dated: Array<{ id: string; date: string }>;
  /** Whether the vector leg ran: only then can a run be complete (pairs close in meaning included). */
  close: boolean;
}

/**
 * Which memories a run probes for neighbours by meaning: every one, or those changed since the last complete run
 * (close-leg.ts, closePairs). A daily run probes every one, so a pair that becomes close without either memory
 * changing (a nearer neighbour of one merged away) waits a day at most.
 */
export type CloseProbe = "every" | "changed";

/**
 * Every candidate of the user now: the pairs and the dated facts, as the statements above find them. `close` (a run)
 * adds the legs only a model judges: one phrase, and the vector leg where the database and the context have vectors;
 * the health card counts without them.
 */
export async function findCandidates(ctx: MemoryContext, now: Date, close?: CloseProbe): Promise<Candidates> {
  const userId = ctx.principal.userId;
  const model = close && ctx.database.vector && ctx.embeddingModel ? embeddingModelKey(ctx.embeddingModel) : null;
  const today = now.toISOString();
  const leg = model
    ? await closePairs(ctx, {
        model,
        since: close === "changed" ? await asUser(ctx, (unit) => lastCompleteRun(unit, userId)) : null,
        live: (alias) => live(alias, today),
      })
    : null;
  return asUser(ctx, async (unit) => {
    const slots = await slottedMemories(unit, userId, now);
    const kept = await userRejections(unit, userId);
    return {
      pairs: await unit.rows<CandidatePair>(pairsStatement(userId, now, slots, leg, close !== undefined, kept)),
      dated: (
        await unit.rows<{ id: string; date: string; text: string; aheadOfIt: boolean }>(
          datedStatement(userId, now, kept),
        )
      )
        .filter(timeBound)
        .map(({ id, date }) => ({ id, date })),
      close: leg !== null,
    };
  });
}

/**
 * A write stamps its rows when it begins (the app's clock for a memory, the database's for its vector) and a run sees
 * it only once it commits: a run's start, less this, is before every write it could not see, if writes last less and
 * the two clocks differ by less.
 */
const UNSEEN_WRITES_MS = 10 * 60_000;

/**
 * When the user's latest run that showed the model every group it found (and was not reverted) began, less
 * UNSEEN_WRITES_MS; null when no run did. Without it, every memory is probed for its neighbours by meaning
 * (close-leg.ts, closePairs).
 */
async function lastCompleteRun(unit: UnitOfWork, userId: string): Promise<Date | null> {
  const [row] = await unit.rows<{ since: string | Date | null }>(sql`
    select max(r.started_at) as since from consolidation_runs r
    where r.user_id = ${userId} and r.status = 'succeeded' and r.complete and r.reverted_at is null`);
  return row?.since ? new Date(new Date(row.since).getTime() - UNSEEN_WRITES_MS) : null;
}

/**
 * The candidates as groups for the model, one connected cluster of pairs (and dated facts) each, with what it needs to
 * decide: ids, versions, dates, source quotes and who last changed each memory; at most `limit` groups, and whether
 * they are all of them, pairs close in meaning included (`complete`: none is left for a later run).
 */
export async function candidateGroups(
  ctx: MemoryContext,
  now: Date,
  limit: number,
  probe: CloseProbe,
): Promise<{ groups: CandidateGroup[]; complete: boolean }> {
  const found = await findCandidates(ctx, now, probe);
  const clusters = cluster(found);
  const ids = [...new Set(clusters.flat())];
  if (ids.length === 0) return { groups: [], complete: found.close };
  const rows = await asUser(ctx, (unit) => readMembers(unit, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const groups: CandidateGroup[] = [];
  for (const members of clusters) {
    for (let from = 0; from < members.length && groups.length < limit; from += GROUP_SIZE) {
      const part = new Set(members.slice(from, from + GROUP_SIZE));
      groups.push({
        memories: [...part].flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
        pairs: found.pairs.filter((pair) => part.has(pair.a) && part.has(pair.b)),
        dated: found.dated.filter((entry) => part.has(entry.id)),
      });
    }
  }
  const wanted = clusters.reduce((sum, members) => sum + Math.ceil(members.length / GROUP_SIZE), 0);
  return { groups, complete: found.close && groups.length === wanted };
}

/** Connected components of the pairs, dated facts alone where no pair holds them; oldest-first by id order found. */
function cluster(found: Candidates): string[][] {
  const parent = new Map<string, string>();
  const root = (id: string): string => {
    let at = id;
    while (parent.get(at) !== at) at = parent.get(at)!;
    parent.set(id, at);
    return at;
  };
  const add = (id: string) => {
    if (!parent.has(id)) parent.set(id, id);
  };
  for (const { a, b } of found.pairs) {
    add(a);
    add(b);
    parent.set(root(a), root(b));
  }
  for (const { id } of found.dated) add(id);
  const clusters = new Map<string, string[]>();
  for (const id of parent.keys()) {
    const key = root(id);
    clusters.set(key, [...(clusters.get(key) ?? []), id]);
  }
  return [...clusters.values()];
}

async function readMembers(unit: UnitOfWork, ids: string[]): Promise<CandidateMemory[]> {
  const rows = await unit.rows<Omit<CandidateMemory, "createdAt" | "validFrom" | "validTo"> & Record<string, unknown>>(
    sql`
    select id, version, namespace, kind, text, created_at as "createdAt", valid_from as "validFrom",
      valid_to as "validTo", quote, actor_type as "lastChangedBy"
    from memories
    where user_id = ${unit.userId} and id::text = any(${textArray(ids)})
    order by created_at, id`,
  );
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return rows.map((row) => ({
    ...row,
    createdAt: new Date(row.createdAt as string),
    validFrom: date(row.validFrom),
    validTo: date(row.validTo),
  }));
}

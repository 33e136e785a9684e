import type { ConsolidationInput, ConsolidationWireOp } from "@/lib/memory/consolidation";
import { factKey } from "@/lib/memory/core";
import { clausesOf, mainClause } from "@/lib/text/clauses";
import { TIME_PREPOSITIONS, TIME_QUALIFIERS } from "@/lib/text/function-words";
import { comparableValue, sameSlot, slotOf } from "@/lib/text/slots";
import { differentStandingValues } from "@/lib/text/standing-values";
import { trimEnd } from "@/lib/text/trim";
import { withoutManagersMarks } from "@/lib/text/user-statement";
import {
  baseForms,
  isAttitudeAdjective,
  isEasing,
  isLikingNoun,
  isLikingVerb,
  isOfFrequency,
  isTimePeriod,
  isVerbForm,
} from "@/lib/text/word-kinds";
import { isMostlyAdjective } from "@/lib/text/wordnet";
import { LIKING_ADJECTIVES, restates, STRESS, withoutIdioms } from "./restatement";

type Shown = ConsolidationInput["memories"][number];

/**
 * The offline model's consolidation (docs/memory-model.md, "Consolidation"), by rules: memories whose words are the
 * same up to case, punctuation and words that only stress ("the user really loves…", "…most of all"), and that do
 * not give two values of one slot, are merged into the fullest wording (the oldest of equals), which takes the asides
 * of the others it lacks; memories filling one slot with different values are superseded by the newest; a time-bound
 * fact whose date has passed expires the day after it.
 */
export function consolidate(input: ConsolidationInput): { ops: ConsolidationWireOp[] } {
  // Read without a manager's marks ("- hobby: …", "The human …", "User seems to …"); the ops name memories by id.
  const byId = new Map(
    input.memories.map((memory) => [memory.id, { ...memory, text: withoutManagersMarks(memory.text) }]),
  );
  const written = new Map(input.memories.map((memory) => [memory.id, memory.text]));
  const used = new Set<string>();
  const ops: ConsolidationWireOp[] = [];

  const duplicates = input.related.filter((pair) => sameWords(byId.get(pair.a), byId.get(pair.b)));
  for (const cluster of clusters(duplicates)) {
    const members = cluster.map((id) => byId.get(id)!).sort(byTime);
    const into = members.reduce((fullest, memory) =>
      wordsOf(memory.text).size > wordsOf(fullest.text).size ? memory : fullest,
    );
    const others = members.filter((memory) => memory !== into).map((memory) => written.get(memory.id)!);
    ops.push({
      op: "merge",
      ids: members.map((memory) => memory.id),
      into: into.id,
      validTo: null,
      text: mergedWording(written.get(into.id)!, others),
      reason: "the same fact, said again",
    });
    for (const memory of members) used.add(memory.id);
  }

  const slots = input.related.filter(
    (pair) => !used.has(pair.a) && !used.has(pair.b) && oneSlot(byId.get(pair.a)!.text, byId.get(pair.b)!.text),
  );
  for (const cluster of clusters(slots)) {
    const members = cluster.map((id) => byId.get(id)!).sort(byTime);
    const newest = members.at(-1)!;
    ops.push({
      op: "supersede",
      ids: members.slice(0, -1).map((memory) => memory.id),
      into: newest.id,
      validTo: null,
      text: null,
      reason: "a newer value of the same fact",
    });
    for (const memory of members) used.add(memory.id);
  }

  for (const { id, date } of input.dated) {
    if (used.has(id) || !(date < input.today)) continue;
    ops.push({
      op: "expire",
      ids: [id],
      into: null,
      validTo: nextDay(date),
      text: null,
      reason: "its date has passed",
    });
  }
  return { ops };
}

/**
 * The wording a merge gives the memory that stands: its own text, then each aside of the others it does not hold
 * already, as it was written, in brackets or after a ";" ("Loves hiking; says it clears their head" and "Loves
 * hiking (most weekends)" give "Loves hiking; says it clears their head (most weekends)"). Null when its own text
 * holds everything: a merge loses no detail, and adds no word the memories did not say.
 */
function mergedWording(into: string, others: readonly string[]): string | null {
  let wording = trimEnd(into, ".");
  for (const text of others) {
    for (const aside of clausesOf(text).slice(1)) {
      // Held already when a clause of the wording says it: a part of one may say less ("(with their brother)" in
      // "(with their brother's friends)").
      if (onlyFrames(aside) || clausesOf(wording).some((clause) => factKey(clause) === factKey(aside))) continue;
      wording += text.includes(`(${aside})`) ? ` (${aside})` : `; ${trimEnd(aside, ".")}`;
    }
  }
  return wording === trimEnd(into, ".") ? null : wording;
}

/** One slot as the table reads it, or two values of one kind the user holds one of (lib/text/standing-values.ts). */
const oneSlot = (a: string, b: string) => sameSlot(a, b) || differentStandingValues(a, b);

/**
 * Same words but for words that only stress ("User loves X" / "The user really loves X most of all"), without giving
 * two values of one slot or negating the other. Any other word that differs (a name, a number, an id: "Parcel 1x0x5"
 * and "Parcel 1x1x5") makes them two facts, however much else they share.
 */
function sameWords(a: Shown | undefined, b: Shown | undefined): boolean {
  if (!a || !b) return false;
  if (normalized(a.text) === normalized(b.text)) return true;
  const left = slotOf(a.text);
  const right = slotOf(b.text);
  if (left && right && left.key === right.key) return comparableValue(left.value) === comparableValue(right.value);
  // Times are compared clause for clause: the main clauses' with each other, the asides' with each other.
  const [mainA, mainB] = [mainClause(a.text), mainClause(b.text)].map(withoutIdioms) as [string, string];
  const [asideA, asideB] = [weighedAsides(a.text), weighedAsides(b.text)];
  if (oneSlot(a.text, b.text) || twoTimes(mainA, mainB) || twoTimes(asideA, asideB)) return false;
  if (differOnlyInStress(a.text, b.text) || sameContent(a.text, b.text)) return true;
  // An aside on one side only adds to the one fact ("Hobby: birdwatching (most weekends)"), as does one beside an
  // aside that only frames the liking ("(still loves it very much)"), unless it takes the fact back or thins it
  // ("(no longer)", "(rarely)", "(trying to quit)"): the merge's wording keeps both.
  const aside = asideA || asideB;
  const oneSided = (asideA === "") !== (asideB === "") && !TAKES_BACK.test(aside);
  if (oneSided && sameContent(mainClause(a.text), mainClause(b.text))) return true;
  // Each frames what they share as a liking or a habit, and no word of either outside it names a thing of its own:
  // whichever leg of the finder paired them (a shared opening, a phrase, vectors), the words decide.
  return restates(a.text, b.text, frames);
}

/**
 * Two habits at two times ("on Mondays" / "on Fridays", "every morning" / "every evening"): each names when, and not
 * the same. A time on one side only, or how long ("for years"), is framing. Read on the clauses a restatement is
 * compared on: an aside's time ("…; spends most weekends on it") is not the habit's.
 */
function twoTimes(a: string, b: string): boolean {
  const timesOf = (text: string) =>
    new Set(
      normalized(text)
        .split(" ")
        // "go" is a time period too ("it's your go"), and a framing verb here. "their free time", "the best part of
        // their week": whose time, not when.
        .filter(
          (word, at, words) =>
            isTimePeriod(word) && !HOW_LONG.test(word) && !FRAMING.has(word) && !ownersTime(words, at),
        )
        .map((word) => word.replace(/s$/, "")),
    );
  const [left, right] = [timesOf(a), timesOf(b)];
  // "on weekends" / "on Saturday mornings": a day of the weekend is within it. Two times only where each side names
  // one the other does not meet, whichever of the two is read first.
  const meets = (time: string, side: Set<string>) =>
    side.has(time) || [...side].some((other) => within(time, other) || within(other, time));
  const apart = (one: Set<string>, other: Set<string>) => [...one].some((time) => !meets(time, other));
  return left.size > 0 && right.size > 0 && apart(left, right) && apart(right, left);
}
const within = (part: string, whole: string) => whole === "weekend" && (part === "saturday" || part === "sunday");
const HOW_LONG = /^(?:years?|decades?|months?|ages?|lifetimes?)$/;
// Only "their free time" and "the (favourite) part of their week": "spends their weekends …" says when.
const ownersTime = (words: string[], at: number) =>
  (/^(?:free|spare)$/.test(words[at - 1] ?? "") && OWNERS.has(words[at - 2] ?? "")) ||
  (OWNERS.has(words[at - 1] ?? "") && words[at - 2] === "of" && /^(?:part|highlight)$/.test(words[at - 3] ?? ""));
const OWNERS = new Set(["their", "his", "her", "my", "our", "your"]);
const asidesOf = (text: string) => clausesOf(text).slice(1).join(" ");
/** The asides weighed against another memory's: none where they only say the liking holds (onlyFrames). */
const weighedAsides = (text: string) => {
  const asides = asidesOf(text);
  return onlyFrames(asides) ? "" : asides;
};
/**
 * An aside that says nothing but that the liking holds now ("(still loves it very much)", "; still a favourite"):
 * stress, a liking in the present, and the words standing for what is liked. It names no detail to weigh against
 * another aside's, and adds none to a merge's wording. A liking of another kind or tense ("(hates it)", "(loved
 * it)") is not one.
 */
const onlyFrames = (aside: string) =>
  aside !== "" &&
  !TAKES_BACK.test(aside) &&
  withoutStressPhrases(aside).every((word) => STRESS.has(word) || HOLDS.has(word) || STANDING_FOR_IT.has(word));
const HOLDS = new Set("loves likes enjoys adores is remains favourite favorite".split(" "));
const STANDING_FOR_IT = new Set(["it", "this", "that", "them", "a"]);
// Taking it back, thinning it, or turning from it ("(hates it now)", "(gave it up)", "(switched to tea)").
const TAKES_BACK =
  /\b(?:no|not|never|longer|anymore|rarely|seldom|hardly|barely|occasionally|sometimes|quit|quitting|stopped|former|formerly|used|trying|once|hates?|hated|dislikes?|disliked|avoids?|avoided|(?:gave|gives?|given) (?:it )?up|allergic|switched|cut down|prefers?|preferred)\b|n't\b/i;

/** A word that frames a liking or a habit (see FRAMING). */
const frames = (word: string) =>
  (FRAMING.has(word) && !BEING.has(word)) ||
  LIKING_ADJECTIVES.has(word) ||
  isLikingNoun(word) ||
  isLikingVerb(word) ||
  isAttitudeAdjective(word) ||
  isEasing(word) ||
  // "is spent": spending time on a thing in any of its forms, an irregular one too; "keeps going" as "goes" ("went"
  // may be one outing).
  baseForms(word).includes("spend") ||
  word === "going";

const STRESS_PHRASES = ["most of all", "very much", "so much", "a lot of", "a lot"];

function differOnlyInStress(a: string, b: string): boolean {
  const left = wordsWithoutStressPhrases(a);
  const right = wordsWithoutStressPhrases(b);
  const differing = [...left].filter((word) => !right.has(word)).concat([...right].filter((word) => !left.has(word)));
  return differing.every((word) => STRESS.has(word));
}

const withoutStressPhrases = (text: string) =>
  STRESS_PHRASES.reduce((rest, phrase) => rest.split(` ${phrase} `).join(" "), ` ${normalized(text)} `)
    .trim()
    .split(" ");
const wordsWithoutStressPhrases = (text: string) => new Set(withoutStressPhrases(text));

/**
 * Words that frame what the user likes or does without being it: a verb of liking (these, or one WordNet defines by
 * pleasure or fondness: "relishes", "cherishes"), "favourite thing", a liking's adjective or noun with its preposition
 * ("passionate about", "fond of", "has a real fondness for": a noun under WordNet's liking, love, passion or
 * enthusiasm), a habit's "spends" and how often ("most weekends", "their free time", "on Sundays", "weekends": a
 * quantifier, an owner, "on" or a plural, and a WordNet time period). "User spends most weekends hiking" and "User's
 * favourite thing is hiking" say one thing; "hiking in winter" and "hiking in summer" keep their time, and "likes
 * dogs" and "likes all dogs" their quantifier.
 */
const FRAMING = new Set(
  "is are been like likes love loves enjoy enjoys adore adores spend spends go goes favourite favorite main thing things pastime pastimes hobby hobbies passion passions interest interests".split(
    " ",
  ),
);

/**
 * The same words in the same order once stress and framing are dropped, and some left: one fact restated. Both must
 * be framed as a liking or a habit, or neither: "User is Italian" and "User loves Italian" are two facts.
 */
function sameContent(a: string, b: string): boolean {
  const left = contentOf(a);
  const right = contentOf(b);
  return left.kept.length > 0 && left.framed === right.framed && left.kept.join(" ") === right.kept.join(" ");
}

const BEING = new Set(["is", "are", "been"]);
/**
 * Words that stand in for what the user likes where a statement puts it first ("hiking is something the user loves",
 * "hiking is what the user enjoys"): they name nothing of their own.
 */
const STAND_INS = new Set(["something", "what"]);

function contentOf(text: string): { kept: string[]; framed: boolean } {
  // The user is the subject wherever they are named: "hiking is the user's favourite pastime".
  const all = withoutStressPhrases(text.replace(/’/g, "'"));
  const words = all.filter((word) => word !== "user" && word !== "user's");
  const kept: string[] = [];
  let framed = false;
  for (let at = 0; at < words.length; at++) {
    const word = words[at]!;
    // "User's club loves …": what the user has is the subject, unless it frames ("User's favourite thing is …").
    if (at === 0 && all[0] === "user's" && !FRAMING.has(word) && !isLikingNoun(word) && !isTimePeriod(word)) {
      kept.push(word);
      continue;
    }
    const timeAt = timeExpressionEnd(words, at);
    const liking = HAVING.has(word) || BEING.has(word) || isVerbForm(word) ? likingNounAfter(words, at + 1) : at;
    // "is really into sailing": being into a thing is liking it.
    if (word === "into" && BEING.has(words.slice(0, at).findLast((before) => !STRESS.has(before)) ?? "")) {
      framed = true;
      continue;
    }
    if (timeAt > at) {
      at = timeAt - 1;
      framed = true;
    } else if (LIKING_ADJECTIVES.has(word) || isLikingNoun(word) || liking > at) {
      at = Math.max(at, liking);
      at += /^(?:about|of|on|for|in|from)$/.test(words[at + 1] ?? "") ? 1 : 0;
      framed = true;
    } else if (FRAMING.has(word) || isLikingVerb(word)) {
      framed ||= !BEING.has(word);
      // "likes to go hiking": the infinitive's "to" belongs to the liking.
      if (isLikingVerb(word) && words[at + 1] === "to" && isVerbForm(words[at + 2] ?? "")) at++;
    } else if (isOfFrequency(word)) framed = true;
    // "…what the user enjoys most": a last "most" or "best" only stresses the liking before it.
    // "has been": the perfect's "has" names nothing had.
    else if (
      STAND_INS.has(word) ||
      (HAVING.has(word) && words[at + 1] === "been") ||
      (at === words.length - 1 && framed && /^(?:most|best)$/.test(word))
    )
      continue;
    else if (!STRESS.has(word)) kept.push(word);
  }
  return { kept, framed };
}

/**
 * Where a time expression of how often or whose time starting at `at` ends, just past its period ("most weekends",
 * "in their free time", "on Sundays", "weekends"), or `at` when none starts there: words that qualify a time period,
 * then a WordNet time period.
 */
function timeExpressionEnd(words: string[], at: number): number {
  // "for years", "for many years": how long a habit has lasted.
  const preposition = TIME_PREPOSITIONS.has(words[at]!) || words[at] === "for";
  let end = preposition ? at + 1 : at;
  let qualified = false;
  while (end < at + 4 && TIME_QUALIFIERS.has(words[end] ?? "")) {
    qualified = true;
    end++;
  }
  const period = words[end];
  if (!period || !isTimePeriod(period)) return at;
  // "on Sundays" and "weekends" are a habit; "in summer", "in summers" or "on Sunday" may be one time, which keeps two
  // facts apart.
  const plural = period.endsWith("s") && (!preposition || words[at] === "on" || words[at] === "for");
  return qualified || plural ? end + 1 : at;
}

/**
 * "has a (real) fondness for", "is a big fan of", "takes great pleasure in": articles, stress and adjectives after a
 * verb, then a noun of liking; else `from - 1`.
 */
const HAVING = new Set(["has", "have"]);

function likingNounAfter(words: string[], from: number): number {
  let at = from;
  while (at < from + 3 && (STRESS.has(words[at] ?? "") || isMostlyAdjective(words[at] ?? ""))) at++;
  return words[at] && isLikingNoun(words[at]!) ? at : from - 1;
}

const wordsOf = (text: string) => new Set(normalized(text).split(" "));

const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/^the user\b/, "user")
    .replace(/[^\p{L}\p{N}\s']/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

const time = (memory: Shown) => Date.parse(memory.validFrom ?? memory.createdAt);
const byTime = (a: Shown, b: Shown) => time(a) - time(b) || Date.parse(a.createdAt) - Date.parse(b.createdAt);

function clusters(pairs: ReadonlyArray<{ a: string; b: string }>): string[][] {
  const groups: Array<Set<string>> = [];
  for (const { a, b } of pairs) {
    const joined = groups.filter((group) => group.has(a) || group.has(b));
    const merged = new Set([a, b, ...joined.flatMap((group) => [...group])]);
    for (const group of joined) groups.splice(groups.indexOf(group), 1);
    groups.push(merged);
  }
  return groups.map((group) => [...group]);
}

function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00.000Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

import { ADVERBS_BESIDE_A_VERB } from "@/lib/text/function-words";
import { placeNameAt, placeValue } from "@/lib/text/place-names";
import { slotOf } from "@/lib/text/slots";
import { firstClause } from "@/lib/text/trim";
import {
  endsHolding,
  isKindOf,
  isLikingNoun,
  isLikingVerb,
  isOccupation,
  isOfFormerTime,
  isResidenceVerb,
  isTimePeriod,
  mayBeKindOf,
  residenceIsFirstSense,
  takesUpResidence,
} from "@/lib/text/word-kinds";
import { isMostlyAdjective, verbGlosses } from "@/lib/text/wordnet";

/**
 * A value the user holds one of at a time, read by its kind rather than by the words around it (docs/memory-model.md,
 * "Consolidation"): a job is an occupation (WordNet) said of the user ("is a", "as a", "being a"), a home a place name
 * beside a word of dwelling ("signed the lease on a flat in Porto", "renting a small place in Lisbon"). The offline
 * consolidation lets the newer of two such memories that the finder showed together supersede the older, however
 * each is worded, where the slot table (lib/text/slots.ts) knows only its phrasings; the finder pairs memories holding
 * one kind as one slot (lib/memory/consolidation/candidates.ts), so the health card counts them as conflicts too. Read only in the statement's
 * first clause, and only when the user is its subject: "User's sister lives in Porto" holds no home of the user's, nor
 * does "…; their brother is a pilot" a job. A dated statement is an event; a liking, a wish, a negation or a value
 * held no more ("quit their job as", "used to", "formerly", a past "lived in") holds none either.
 */
export interface StandingValue {
  kind: "home" | "job";
  value: string;
}

export function standingValueOf(text: string): StandingValue | undefined {
  if (/\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const tokens = clauseWords(text);
  const words = tokens.map((token) => token.toLowerCase().replace(/’/g, "'"));
  const from = userSubjectEnd(words);
  if (from === undefined) return undefined;
  if (words.some((word, at) => heldNot(words, word, at))) return undefined;
  const jobs = jobsIn(words, from);
  const homes = homesIn(tokens, words, from);
  if (jobs.length + homes.length !== 1) return undefined;
  return jobs.length === 1 ? { kind: "job", value: jobs[0]! } : { kind: "home", value: homes[0]! };
}

/** The slot key of a kind, as lib/text/slots.ts names it: one home and one job, however each memory reads it. */
export const STANDING_SLOT_KEYS = { home: "residence", job: "job" } as const;

/**
 * Two memories holding different values of one kind: the newer is the user's value now. Each is read as the slot
 * table reads it (lib/text/slots.ts: "User is based in Lisbon") or else by its kind, so a home the table knows meets
 * one only its kind tells ("User signed the lease on a flat in Porto").
 */
export function differentStandingValues(a: string, b: string): boolean {
  const left = homeOrJobOf(a);
  const right = homeOrJobOf(b);
  return left !== undefined && right !== undefined && left.kind === right.kind && left.value !== right.value;
}

function homeOrJobOf(text: string): StandingValue | undefined {
  const slot = slotOf(text);
  if (slot?.key === STANDING_SLOT_KEYS.home) return { kind: "home", value: slot.value.toLowerCase() };
  // The table's job is its whole phrase ("being a nurse" of "User's day job is being a nurse"): read by kind first.
  const standing = standingValueOf(text);
  if (standing || slot?.key !== STANDING_SLOT_KEYS.job) return standing;
  return { kind: "job", value: slot.value.toLowerCase().replace(/^an? /, "") };
}

/** The words of the statement's first clause (lib/text/trim.ts, firstClause), without brackets, colons and quotes. */
function clauseWords(text: string): string[] {
  return firstClause(text)
    .replace(/[(),:"]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * Where the words after the subject begin when the user is the subject: "User …", "The user …", or the user's own
 * thing that is not a person ("User's day job is…"; not "User's sister is…").
 */
function userSubjectEnd(words: string[]): number | undefined {
  const at = words[0] === "the" ? 1 : 0;
  if (words[at] === "user") return at + 1;
  if (words[at] !== "user's") return undefined;
  let end = at + 1;
  while (end < words.length && !BEING.has(words[end]!) && end < at + 4) end++;
  const owned = words.slice(at + 1, end);
  return owned.length > 0 && !owned.some((word) => isKindOf(word, ["person"])) ? at + 1 : undefined;
}

const BEING_WORDS = ["is", "are", "was", "am", "be", "being", "been", "became", "become", "becomes", "as"];
const BEING = new Set(BEING_WORDS);
const ARTICLES = new Set(["a", "an"]);
const NEGATION = /^(?:not|never|no|nor)$|n't$/;
/** A wish or a maybe is not a value held: "wants to move to Porto", "might become a teacher". */
const NOT_YET = new Set(
  "want wants wanted hope hopes hoping would might may could should plans planning thinking considering dreams".split(
    " ",
  ),
);

function heldNot(words: string[], word: string, at: number): boolean {
  return (
    NEGATION.test(word) ||
    NOT_YET.has(word) ||
    (word === "used" && words[at + 1] === "to") ||
    isOfFormerTime(word) ||
    endsHolding(word, words[at + 1]) ||
    isLikingVerb(word) ||
    isLikingNoun(word) ||
    // "visited a friend's house in Turin": someone else's thing, or a visit, is not the user's value.
    (at > 1 && word.endsWith("'s")) ||
    isVisit(word) ||
    // "lived in Lisbon", "stayed in Ghent": where the user lived or stayed, not where they live.
    (word.endsWith("ed") && isResidenceVerb(word) && !takesUpResidence(word)) ||
    // "is moving to Porto" is a plan; "is living in Porto" a home.
    (word.endsWith("ing") && BEING.has(words[at - 1] ?? "") && isResidenceVerb(word) && !residenceIsFirstSense(word))
  );
}

const VISIT_GLOSS = /\b(?:go to see|come to see|travel|journey)\b/;
const isVisit = (word: string) =>
  [word, word.replace(/(?:ing|ed|s)$/, ""), word.replace(/(?:ing|ed|s)$/, "e")].some((form) =>
    verbGlosses(form)
      .slice(0, 2)
      .some((gloss) => VISIT_GLOSS.test(gloss)),
  );

/** Occupations said of the user: after "is a", "as a", "being a", "became a" and a few adjectives of its kind. */
function jobsIn(words: string[], from: number): string[] {
  const jobs: string[] = [];
  for (let at = from; at < words.length - 1; at++) {
    if (!BEING.has(words[at]!)) continue;
    let start = at + 1;
    while (ADVERBS_BESIDE_A_VERB.has(words[start] ?? "")) start++;
    if (!ARTICLES.has(words[start] ?? "")) continue;
    // The longest run of the noun phrase that ends in an occupation: "a nurse working night shifts" → "nurse".
    const phrase = nounPhrase(words, start + 1);
    const end = phrase.findLastIndex(isOccupation) + 1;
    // "a good cook" judges a pastime; a job's modifiers name its kind ("software engineer").
    // "a resident": one who dwells somewhere, though WordNet's second "resident" is a physician.
    if (end > 0 && isDwellingNoun(phrase[end - 1]!)) continue;
    if (end > 0 && !phrase.slice(0, end - 1).some(isMostlyAdjective)) jobs.push(phrase.slice(0, end).join(" "));
  }
  return jobs;
}

function nounPhrase(words: string[], from: number): string[] {
  let end = from;
  while (end < words.length && end < from + 4 && /^[a-z-]+$/.test(words[end]!) && !ENDS.has(words[end]!)) end++;
  return words.slice(from, end);
}

const ENDS = new Set(
  "by at for in with from who which that and but since on of to because while near after before until during when now next".split(
    " ",
  ),
);

/**
 * Place names after "in", "to", "at", "of" or a word of being ("User's home base is Porto"), or before a noun of
 * dwelling or of the one who dwells ("the Porto flat", "a Porto resident"), in a clause that says where the user
 * dwells (dwellsIn). A name after "with" or "from" is a person or an origin, not a home.
 */
function homesIn(tokens: string[], words: string[], from: number): string[] {
  if (!dwellsIn(words, from)) return [];
  const homes: string[] = [];
  for (let at = from; at < tokens.length; at++) {
    if (!/^\p{Lu}/u.test(tokens[at]!)) continue;
    const before = words[at - 1] ?? "";
    const name = placeNameAt(tokens.slice(at).join(" "));
    if (!name) continue;
    const after = words[at + name.split(/\s+/).length] ?? "";
    if (/^(?:in|to|at|of|is|are)$/.test(before) || isDwellingNoun(after)) homes.push(placeValue(name));
    at += name.split(/\s+/).length - 1;
  }
  return [...new Set(homes)];
}

const isDwellingNoun = (word: string) => isKindOf(word, ["housing", "dwelling", "residence", "inhabitant", "occupant"]);
const RESIDENCE_GLOSS = /\b(?:resid\w*|inhabit\w*|dwell\w*)\b/;
const LEASE_GLOSS = /\b(?:lease|rental|let for money)\b/;
const PROPERTY_GLOSS = /\b(?:possess\w*|ownership|purchase)\b/;
/** Words before a dwelling that make it one the user does not live in now: "old", "former", "second" (home). */
const NOT_THE_HOME = new Set(["old", "former", "previous", "ex", "second", "other", "spare"]);

/**
 * Whether the clause says where the user dwells: a verb defined by residence ("lives", "settled"), a noun of dwelling
 * ("apartment", "home", "resident") that is not one they own, once had or keep for a season ("has a holiday home",
 * "bought a house", "the old apartment"), or a word of leasing with a thing one may dwell in ("signed the lease on a
 * flat", "renting a small place"; not "rented a car").
 */
function dwellsIn(words: string[], from: number): boolean {
  const clause = words.slice(from);
  if (clause.some((word) => verbSensesMatch(word, RESIDENCE_GLOSS))) return true;
  const owned = clause.some(
    (word, at) => verbSensesMatch(word, PROPERTY_GLOSS) && /^(?:a|an|the|two)$/.test(clause[at + 1] ?? ""),
  );
  if (!owned && clause.some((word, at) => isDwellingNoun(word) && !heldAside(clause, at))) return true;
  return (
    clause.some((word) => verbSensesMatch(word, LEASE_GLOSS)) &&
    clause.some((word) => mayBeKindOf(word, ["housing", "dwelling", "residence", "abode"]))
  );
}

/** A dwelling said with a word of time or of a former one before it ("holiday home", "summer house", "old flat"). */
const heldAside = (words: string[], at: number) =>
  words.slice(Math.max(0, at - 2), at).some((word) => NOT_THE_HOME.has(word) || isTimePeriod(word));

function verbSensesMatch(word: string, gloss: RegExp): boolean {
  const forms = [word, word.replace(/(?:ing|ed|es|s)$/, ""), word.replace(/(?:ing|ed|es|s)$/, "e")];
  return forms.some((form) =>
    verbGlosses(form)
      .slice(0, 4)
      .some((definition) => gloss.test(definition)),
  );
}

/**
 * The texts standingValueOf may read a value from, as PostgreSQL patterns for the finder to pick the memories it reads
 * into TypeScript: a job after the words jobsIn reads (a word of being, adverbs, "a" or "an") in the lower-cased text,
 * a home at a capitalised word after the first (a place name) in the text as written.
 */
const SQL_ADVERBS = `( (${[...ADVERBS_BESIDE_A_VERB].join("|")}))*`;
export const MAY_HOLD_A_JOB = `\\m(${BEING_WORDS.join("|")})${SQL_ADVERBS} an? `;
export const MAY_HOLD_A_HOME = "\\s[^[:lower:][:digit:][:space:][:punct:]]";

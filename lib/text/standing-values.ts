import { ADVERBS_BESIDE_A_VERB } from "@/lib/text/function-words";
import { statementHeldForAWhileOrAhead, toldOfAChildhood } from "@/lib/text/held-for-a-while";
import { placeNameAt, placeValue } from "@/lib/text/place-names";
import { heldBefore, slotOf } from "@/lib/text/slots";
import { firstClause } from "@/lib/text/trim";
import { asUserStatement } from "@/lib/text/user-statement";
import {
  endsHolding,
  isBeginning,
  isKindOf,
  isLikingNoun,
  isLikingVerb,
  isOccupation,
  isOfFormerTime,
  isPersonWord,
  isReporting,
  isResidenceVerb,
  isTimePeriod,
  mayBeKindOf,
  residenceIsFirstSense,
  takesUpResidence,
  turnsDown,
  verbSenseMatches,
} from "@/lib/text/word-kinds";
import { isMostlyAdjective } from "@/lib/text/wordnet";

/**
 * A value the user holds one of at a time, read by its kind rather than by the words around it (docs/memory-model.md,
 * "Consolidation"): a job is an occupation (WordNet) said of the user ("is a", "as a", "being a"), a home a place name
 * beside a word of dwelling ("signed the lease on a flat in Porto", "renting a small place in Lisbon"). The offline
 * consolidation lets the newer of two such memories that the finder showed together supersede the older, however
 * each is worded, where the slot table (lib/text/slots.ts) knows only its phrasings; the finder pairs memories holding
 * one kind as one slot (lib/memory/consolidation/candidates.ts), so the health card counts them as conflicts too. Read only in the statement's
 * first clause, and only when the user is its subject: "User's sister lives in Porto" holds no home of the user's, nor
 * does "…; their brother is a pilot" a job. A dated statement is an event; a liking, a wish, a negation, a value
 * held no more ("quit their job as", "used to", "formerly", a past "lived in"), one turned down ("declined a job as")
 * or one of a childhood ("moved to Porto as a child") holds none either.
 */
export interface StandingValue {
  kind: "home" | "job";
  value: string;
}

export function standingValueOf(written: string): StandingValue | undefined {
  const text = asUserStatement(written);
  if (/\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const tokens = clauseWords(text);
  const words = tokens.map((token) => token.toLowerCase().replace(/’/g, "'"));
  const from = userSubjectEnd(words);
  if (from === undefined) return undefined;
  if (
    heldBefore(text) ||
    statementHeldForAWhileOrAhead(text) ||
    toldOfAChildhood(text) ||
    words.some((word, at) => heldNot(words, word, at))
  )
    return undefined;
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
  if (words[at] === "user") return sharedSubjectEnd(words, at + 1) ?? at + 1;
  if (words[at] !== "user's") return undefined;
  let end = at + 1;
  while (end < words.length && !BEING.has(words[end]!) && end < at + 4) end++;
  const owned = words.slice(at + 1, end);
  return owned.length > 0 && !owned.some((word) => isKindOf(word, ["person"])) ? at + 1 : undefined;
}

/** "User and their partner moved to Porto": a subject the user shares with someone of theirs; where it ends. */
function sharedSubjectEnd(words: string[], at: number): number | undefined {
  if (words[at] !== "and" || words[at + 1] !== "their") return undefined;
  const person = words.findIndex((word, index) => index > at + 1 && index <= at + 3 && isKindOf(word, ["person"]));
  return person > 0 ? person + 1 : undefined;
}

const BEING_WORDS = ["is", "are", "am", "be", "being", "been", "became", "become", "becomes", "as"];
const BEING = new Set(BEING_WORDS);
const ARTICLES = new Set(["a", "an"]);
const NEGATION = /^(?:not|never|no|nor)$|n't$/;
/**
 * Words that make a value not the one the user holds now: a wish, a maybe or a future ("wants to move to Porto", "might
 * become a teacher", "will move", "is about to"), a value sought ("applying for a job as"), one held before ("was a
 * teacher", "previous job", "ex-"), or one held beside the main one ("is also a photographer", "side hustle",
 * "volunteer").
 */
const NOT_HELD_NOW = new Set(
  (
    "want wants wanted hope hopes hoping would might may could should will shall plans planning thinking " +
    "considering dreams dream goal ambition aims aspires applying applied apply interviewed interviewing offer offered " +
    "training studying looking searching seeking previous former ex prior also side too volunteer volunteers " +
    "volunteering"
  ).split(" "),
);

/** Spans after which "ago" tells a value held long before, which may have ended since ("a chef years ago"). */
const LONG_SPANS = new Set(["years", "decades", "ages", "year", "decade"]);
/** Spans a stay or a job lasts for, which a plural of says how long, not how often ("for years"). */
const SPANS = new Set(["years", "months", "weeks", "days", "decades", "hours", "ages"]);
const recurs = (words: string[], word: string, at: number) =>
  isTimePeriod(word) && (words[at - 1] === "every" || (word.endsWith("s") && !SPANS.has(word)));

function heldNot(words: string[], word: string, at: number): boolean {
  return (
    NEGATION.test(word) ||
    NOT_HELD_NOW.has(word) ||
    // "last job", "the old flat": one held before; "last year" only says when.
    ((word === "last" || word === "old") && !isTimePeriod(words[at + 1] ?? "")) ||
    // "moved out of their flat": leaving it.
    (word === "out" && words[at + 1] === "of") ||
    // "is going to move", "is about to move": a future.
    ((word === "going" || word === "about") && words[at + 1] === "to") ||
    // "spends weekends at their cabin", "every summer": a stay that recurs (a stay for a while is
    // statementHeldForAWhileOrAhead's).
    recurs(words, word, at) ||
    // "to be a pilot", "to become a teacher": an aim.
    (words[at - 1] === "to" && (word === "be" || word === "become")) ||
    (word === "used" && words[at + 1] === "to") ||
    // "was a nurse years ago"; a beginning weeks or months ago ("began a new position as a chef two weeks ago") holds
    // now, one years ago ("started as a chef years ago") may have ended since.
    (isOfFormerTime(word) && !(word === "ago" && !LONG_SPANS.has(words[at - 1] ?? "") && words.some(isBeginning))) ||
    endsHolding(word, words[at + 1]) ||
    // "declined a job as a pilot", "turned down a flat in Porto": offered, not taken.
    turnsDown(words, at) ||
    isLikingVerb(word) ||
    isLikingNoun(word) ||
    // "visited a friend's house in Turin", "User's grandmother's house": someone else's thing is not the user's value.
    (at > 0 && /(?:'s|s')$/.test(word) && !/^user'?s?'?$/.test(word)) ||
    // "as stubborn as a farmer": a comparison.
    (word === "as" && isMostlyAdjective(words[at - 1] ?? "") && words[at - 2] === "as") ||
    isVisit(word) ||
    // "lived in Lisbon", "stayed in Ghent": where the user lived or stayed, not where they live.
    (word.endsWith("ed") && isResidenceVerb(word) && !takesUpResidence(word)) ||
    // "is moving to Porto" is a plan; "is living in Porto" a home.
    (word.endsWith("ing") && BEING.has(words[at - 1] ?? "") && isResidenceVerb(word) && !residenceIsFirstSense(word))
  );
}

const VISIT_GLOSS = /\b(?:go to see|come to see|travel|journey)\b/;
const isVisit = (word: string) => verbSenseMatches(word, VISIT_GLOSS, 2);

/** Occupations said of the user: after "is a", "as a", "being a", "became a" and a few adjectives of its kind. */
function jobsIn(words: string[], from: number): string[] {
  const jobs: string[] = [];
  for (let at = from; at < words.length - 1; at++) {
    if (!BEING.has(words[at]!) || !saidOfTheUser(words, from, at)) continue;
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

/**
 * Whether the word at `at` is said of the user: no clause opens between the subject and it ("…, who is a doctor"), and
 * no person is its subject ("…that their wife is a doctor", "has a brother who works as a pilot").
 */
function saidOfTheUser(words: string[], from: number, at: number): boolean {
  const between = words.slice(from, at);
  return !between.some((word) => SUBORDINATES.has(word) || isPersonWord(word));
}
/** Words that open a clause with a subject of its own; "and" and "but" keep the user's ("…and is now a teacher"). */
const SUBORDINATES = new Set(["who", "which", "that", "when", "because", "where", "while", "whose"]);

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
 * The places the user dwells in, each tied to a word of the user's dwelling (docs/memory-model.md, "Consolidation"):
 * the place the user's own verb of residence takes ("lives in Lisbon", "has been living in Toronto", "moved to
 * Porto"), or where a dwelling of theirs is: the user's ("User's new apartment is in Porto", "their flat") or one they
 * lease ("signed the lease on a flat in Porto", "has been renting a small place in Lisbon"), said before it ("a Porto
 * resident") or after it with "in", "at" or "is". Not one they own, had or keep for a season ("has a holiday home",
 * "bought a house", "a nursing home", "her new apartment"), and not a place beside them ("lives next to Ana").
 */
function homesIn(tokens: string[], words: string[], from: number): string[] {
  if (owns(words, from)) return [];
  const homes: string[] = [];
  // The user's verbs: the clause's own, and one it adds with "and" ("moved house and now lives in Porto").
  const verbs = [
    mainVerb(words, from),
    ...words.flatMap((word, at) => (word === "and" ? [mainVerb(words, at + 1)] : [])),
  ];
  for (const verb of verbs) {
    // "lives", "resides", "moved", "settled"; not "stays" ("stays with their grandparents in Lisbon every summer").
    if (verb === undefined || !(residenceIsFirstSense(words[verb]!) || takesUpResidence(words[verb]!))) continue;
    const to = takesUpResidence(words[verb]!) ? /^(?:in|to|into)$/ : /^in$/;
    // "lives in Porto"; "lives with their partner in Porto", "moved into a flat in Porto".
    const next = pastCompanionsAndOrigin(tokens, words, adverbsAfter(words, verb + 1), takesUpResidence(words[verb]!));
    const place =
      placeAfterPreposition(tokens, words, next, to) ??
      (/^(?:with|into)$/.test(words[next] ?? "") ? placeAfter(tokens, words, next + 1, /^in$/) : undefined);
    if (place) homes.push(placeValue(place));
  }
  const leased = words.slice(from).some((word) => verbSenseMatches(word, LEASE_GLOSS, 4));
  for (let at = from; at < words.length; at++) {
    if (!isUsersDwelling(tokens, words, at, from, leased)) continue;
    const before = tokens[at - 1] ?? "";
    // "a Porto resident": a name before it, after the subject ("User's flat": "User's" is no place).
    const place = at - 1 >= from && /^\p{Lu}/u.test(before) ? placeNameAt(before) : placeAfter(tokens, words, at + 1);
    if (place) homes.push(placeValue(place));
  }
  return [...new Set(homes)];
}

/**
 * Past the origin and the company of a move ("moved from Lisbon to Porto", "moved with their family to Porto"): where
 * the place it moves to may be said; `at` itself for any other verb.
 */
function pastCompanionsAndOrigin(tokens: string[], words: string[], at: number, moving: boolean): number {
  if (!moving) return at;
  let next = at;
  if (words[next] === "from") next += 1 + (placeNameAt(tokens.slice(next + 1).join(" "))?.split(/\s+/).length ?? 0);
  if (words[next] === "with") {
    const end = words.findIndex((word, index) => index > next && index <= next + 4 && /^(?:to|into|in)$/.test(word));
    if (end > 0) next = end;
  }
  return next;
}

/**
 * The first word after the subject that is no auxiliary or adverb: the clause's verb ("has been renting" → renting),
 * through a report of what the user said ("mentioned living in", "shared that they moved to" → living, moved).
 */
function mainVerb(words: string[], from: number): number | undefined {
  let at = from;
  for (;;) {
    while (at < words.length && (AUXILIARIES.has(words[at]!) || ADVERBS_BESIDE_A_VERB.has(words[at]!))) at++;
    if (at >= words.length) return undefined;
    if (words[at + 1] === "that" && /^(?:they|he|she)$/.test(words[at + 2] ?? "")) at += 3;
    else if (isReporting(words[at]!) && words[at + 1]?.endsWith("ing")) at += 1;
    else return at;
  }
}
const AUXILIARIES = new Set(["has", "have", "had", "is", "are", "am", "be", "been", "being", "now", "recently"]);

const adverbsAfter = (words: string[], at: number) => {
  let end = at;
  while (ADVERBS_BESIDE_A_VERB.has(words[end] ?? "") || words[end] === "back") end++;
  return end;
};

/** A place name right at `at` after one of `prepositions` ("in Porto", "in the Netherlands"). */
function placeAfterPreposition(tokens: string[], words: string[], at: number, prepositions: RegExp) {
  return prepositions.test(words[at] ?? "") ? placeNameAt(tokens.slice(at + 1).join(" ")) : undefined;
}

/** The first place after one of `prepositions` from `from` on, before a word that opens another clause. */
function placeAfter(tokens: string[], words: string[], from: number, prepositions = /^(?:in|at|is)$/) {
  for (let at = from; at < words.length && !OPENS_A_CLAUSE.has(words[at]!); at++) {
    const name = placeAfterPreposition(tokens, words, at, prepositions);
    if (name) return name;
  }
  return undefined;
}
const OPENS_A_CLAUSE = new Set(["and", "but", "while", "who", "which", "that", "when", "because", "so", "where"]);

/**
 * A noun of dwelling that is the user's: after "user's", "their" or an article, with only adjectives between that do
 * not say it is another one ("new", "small"; not "holiday", "nursing", "second"); "a", "an" or "the" only when the
 * user leases it or it is the one who dwells ("a Porto resident"). Under WordNet's housing, dwelling or residence, or,
 * leased, any noun one may dwell in ("a flat", "a small place").
 */
function isUsersDwelling(tokens: string[], words: string[], at: number, from: number, leased: boolean): boolean {
  const word = words[at]!;
  const dweller = isKindOf(word, ["inhabitant", "occupant"]);
  // Leased or the user's own, any noun one may dwell in ("a flat", "User's new place"; not "place of work").
  const mayDwell = mayBeKindOf(word, ["housing", "dwelling", "residence", "abode"]) && words[at + 1] !== "of";
  if (!isDwellingNoun(word) && !mayDwell) return false;
  // Adjectives, and a place name ("a Porto resident"), may stand between it and its determiner.
  let start = at - 1;
  while (
    start >= from &&
    ((isMostlyAdjective(words[start]!) && !NOT_THE_HOME.has(words[start]!)) || /^\p{Lu}/u.test(tokens[start]!))
  ) {
    start--;
  }
  const determiner = start < from && from > 0 ? words[from - 1]! : words[start];
  if (determiner === "user's" || determiner === "their") return true;
  return /^(?:a|an|the)$/.test(determiner ?? "") && (leased || dweller) && (isDwellingNoun(word) || leased);
}

const isDwellingNoun = (word: string) => isKindOf(word, ["housing", "dwelling", "residence", "inhabitant", "occupant"]);
const LEASE_GLOSS = /\b(?:lease|rental|let for money)\b/;
const PROPERTY_GLOSS = /\b(?:possess\w*|ownership|purchase)\b/;
/** Adjectives before a dwelling that make it another than the one the user lives in: "second", "other" (home). */
const NOT_THE_HOME = new Set(["second", "other", "spare"]);

/**
 * Whether the user owns, buys or lets a dwelling in the clause ("has a flat", "bought a house", "is renting out their
 * flat"): property, not a home.
 */
function owns(words: string[], from: number): boolean {
  return words
    .slice(from)
    .some(
      (word, at, clause) =>
        (verbSenseMatches(word, PROPERTY_GLOSS, 4) && /^(?:a|an|the|two)$/.test(clause[at + 1] ?? "")) ||
        (verbSenseMatches(word, LEASE_GLOSS, 4) && lets(clause, at)),
    );
}

/** A lease the user gives, not takes: "is renting out their flat", "rents their flat in Porto to tourists". */
function lets(words: string[], at: number): boolean {
  if (words.slice(at + 1, at + 4).includes("out")) return true;
  // "to tourists", not "next to their parents".
  const to = words.findIndex((word, index) => index > at && word === "to" && !NEAR.has(words[index - 1]!));
  const whom = words.slice(to + 1, to + 3).find((word) => !/^(?:a|an|the|their|some)$/.test(word));
  return to > at && whom !== undefined && isKindOf(whom, ["person"]);
}

const NEAR = new Set(["next", "close", "near", "due", "nearby"]);

/**
 * The texts standingValueOf may read a value from, as PostgreSQL patterns for the finder to pick the memories it reads
 * into TypeScript: a job after the words jobsIn reads (a word of being, adverbs, "a" or "an") in the lower-cased text,
 * a home at a capitalised word after the first (a place name) in the text as written.
 */
const SQL_ADVERBS = `( (${[...ADVERBS_BESIDE_A_VERB].join("|")}))*`;
export const MAY_HOLD_A_JOB = `\\m(${BEING_WORDS.join("|")})${SQL_ADVERBS} an? `;
export const MAY_HOLD_A_HOME = "\\s[^[:lower:][:digit:][:space:][:punct:]]";

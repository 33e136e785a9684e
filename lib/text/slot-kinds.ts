import { ADVERBS_BESIDE_A_VERB } from "@/lib/text/function-words";
import { placeAfterVerb, placeValue } from "@/lib/text/place-names";
import { trimEnd } from "@/lib/text/trim";
import {
  endsHolding,
  isKindOf,
  isOccupation,
  isOfFormerTime,
  isResidenceVerb,
  residenceIsFirstSense,
  takesUpResidence,
} from "@/lib/text/word-kinds";
import { isMostlyAdjective } from "@/lib/text/wordnet";

/**
 * The slots the table of lib/text/slots.ts cannot list, read by grammar and WordNet (lib/text/word-kinds.ts) in the
 * user's own clause ("User …", never "User's sister …"): a job is an occupation noun after "is a" or "became a" ("User
 * is a nurse by trade") or after "as a" in a clause about work the user still holds ("User started a new job as a
 * teacher"; not "User quit their job as a teacher"); a home is a place name after a verb of residence ("User settled in
 * Porto", "User has been living in Ghent"). A dated statement is an event, never a standing value.
 */
export interface KindSlot {
  key: "job" | "residence";
  value: string;
}

const ARTICLES = new Set(["a", "an"]);
/** Words that end a noun phrase: "a nurse by trade", "a teacher at a school", "a chef who…". */
const PHRASE_ENDS = new Set(
  "by at for in with from who which that and but since on of to because while near after before until during when".split(
    " ",
  ),
);
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
/** The words of employment, WordNet's "occupation" ("job", "career", "profession", "trade"…). */
const isWorkWord = (word: string) => isKindOf(word, ["occupation"]);

/** `normalized` is the text as slots.ts reads it: lower case, "the user" as "user", no end stop. */
export function kindSlotOf(text: string, normalized: string): KindSlot | undefined {
  if (ISO_DATE.test(normalized)) return undefined;
  return occupationSlot(normalized) ?? residenceSlot(text);
}

function occupationSlot(normalized: string): KindSlot | undefined {
  const words = normalized.split(" ");
  if (words[0] !== "user") return undefined;
  let at = skipAdverbs(words, 1);
  const become = words[at] === "has" ? skipAdverbs(words, at + 1) : -1;
  if (words[become] === "become") at = become + 1;
  else if (words[at] === "is" || words[at] === "became") at += 1;
  else return jobAfterAs(words);
  at = skipAdverbs(words, at);
  return ARTICLES.has(words[at] ?? "") ? jobOf(words, at + 1) : undefined;
}

/**
 * The texts occupationSlot and jobAfterAs may read a job from, as a PostgreSQL pattern on the text normalized as they
 * read it, for the finder to pick the memories it reads into TypeScript (lib/memory/consolidation/candidates.ts). It
 * is built from the words they read, so a word added to them is added to it: it must match every text they read a
 * job from, never fewer.
 */
const SQL_ADVERBS = `( (${[...ADVERBS_BESIDE_A_VERB].join("|")}))*`;
export const MAY_NAME_A_JOB = `^user${SQL_ADVERBS} (is|became|has${SQL_ADVERBS} become)${SQL_ADVERBS} an? |^user (.* )?as an? `;

/** "User started a new job as a teacher": "as a" and an occupation, after a word of employment. */
function jobAfterAs(words: string[]): KindSlot | undefined {
  for (let at = 1; at < words.length - 2; at++) {
    // Another clause ("User likes tea and works as…") is not read here.
    if (words[at] === "and" || words[at] === "but") return undefined;
    if (words[at] === "as" && ARTICLES.has(words[at + 1]!) && words.slice(1, at).some(isWorkWord)) {
      return heldNoLonger(words.slice(1, at)) ? undefined : jobOf(words, at + 2);
    }
  }
  return undefined;
}

/**
 * Whether the words before "as a" say the user holds the job no more, so it is not their job now: a negation ("doesn't
 * have a job as"), "used to", an adverb of former time ("formerly had a job as") or a verb of ending ("quit their job
 * as", "was laid off from their job as", "retired from their post as"), as lib/text/word-kinds.ts reads them.
 */
function heldNoLonger(words: string[]): boolean {
  return words.some(
    (word, at) =>
      NEGATION.test(word) ||
      (word === "used" && words[at + 1] === "to") ||
      isOfFormerTime(word) ||
      endsHolding(word, words[at + 1]),
  );
}

const NEGATION = /^(?:not|never|no)$|n't$/;

/** The noun phrase from `from` up to a preposition or the end, when its head (its last word) is an occupation. */
function jobOf(words: string[], from: number): KindSlot | undefined {
  let end = from;
  while (end < words.length && !PHRASE_ENDS.has(words[end]!)) end++;
  const phrase = words.slice(from, end);
  const head = phrase.at(-1);
  if (!head || phrase.length > 4 || !phrase.every((word) => /^[a-z-]+$/.test(word))) return undefined;
  // "a good cook", "a keen gardener" judge a pastime; a job's modifiers name its kind ("software engineer").
  if (phrase.slice(0, -1).some(isMostlyAdjective)) return undefined;
  return isOccupation(head) ? { key: "job", value: phrase.join(" ") } : undefined;
}

/**
 * "User lives in Lisbon", "User settled in the Netherlands", "User has been living in Ghent": a verb of residence, "in"
 * or "to", and a place name as lib/text/place-names.ts reads one. A progressive counts only for a verb whose first
 * sense is living somewhere ("is living"; "is moving to" is a plan), a plain past only for one that takes up a new
 * residence ("moved" is where the user lives now, "lived" where they used to, "stayed" a visit), and a perfect for
 * either ("has lived", "has settled"; "has stayed in Lisbon for three days" is a visit).
 */
function residenceSlot(text: string): KindSlot | undefined {
  const tokens = trimEnd(text.trim(), ".!?").split(/\s+/);
  const lower = tokens.map((token) => token.toLowerCase().replace(/’/g, "'"));
  let at = lower[0] === "the" && lower[1] === "user" ? 2 : lower[0] === "user" ? 1 : 0;
  if (at === 0) return undefined;
  at = skipAdverbs(lower, at);
  let form: "present" | "progressive" | "past" | "perfect" = "present";
  if (lower[at] === "has" || lower[at] === "have") {
    form = "perfect";
    at = skipAdverbs(lower, at + 1);
    if (lower[at] === "been") at += 1;
  } else if (lower[at] === "is") {
    form = "progressive";
    at = skipAdverbs(lower, at + 1);
  }
  const verb = lower[at];
  if (!verb || !isResidenceVerb(verb)) return undefined;
  if (form === "present" && verb.endsWith("ed")) form = "past";
  // "stays in Lisbon every summer" is a habit, not a home: in the present the verb must mean living somewhere.
  if (form === "present" && !residenceIsFirstSense(verb) && !takesUpResidence(verb)) return undefined;
  if (form === "progressive" && !(verb.endsWith("ing") && residenceIsFirstSense(verb))) return undefined;
  if (form === "past" && !takesUpResidence(verb)) return undefined;
  if (form === "perfect" && !residenceIsFirstSense(verb) && !takesUpResidence(verb)) return undefined;
  const place = placeAfterVerb(tokens.slice(at + 1).join(" "));
  return place ? { key: "residence", value: placeValue(place) } : undefined;
}

function skipAdverbs(words: string[], from: number): number {
  let at = from;
  while (at < words.length && ADVERBS_BESIDE_A_VERB.has(words[at]!)) at++;
  return at;
}

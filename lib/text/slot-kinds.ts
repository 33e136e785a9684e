import { ADVERBS_BESIDE_A_VERB } from "@/lib/text/function-words";
import { placeAfterVerb, placeNameAt, placeValue } from "@/lib/text/place-names";
import { trimEnd } from "@/lib/text/trim";
import {
  endsHolding,
  isDwelling,
  isKindOf,
  isOccupation,
  isOfFormerTime,
  isPersonWord,
  isResidenceVerb,
  isWorkVerb,
  residenceIsFirstSense,
  takesUpResidence,
  turnsDown,
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
/**
 * The words of employment: WordNet's "occupation" ("job", "career", "profession", "trade"…), or a verb of working for
 * pay or training for a profession ("earns a living as", "retrained as"; lib/text/word-kinds.ts).
 */
const isWorkWord = (word: string) => isKindOf(word, ["occupation"]) || isWorkVerb(word);

/** `normalized` is the text as slots.ts reads it: lower case, "the user" as "user", no end stop. */
export function kindSlotOf(text: string, normalized: string): KindSlot | undefined {
  if (ISO_DATE.test(normalized)) return undefined;
  // A home first: "a resident of Porto" is an inhabitant, though WordNet's second "resident" is a physician.
  return residenceSlot(text) ?? occupationSlot(normalized);
}

/**
 * "User's job title is nurse": an attribute named by a word of employment whose value is an occupation, read as the
 * job; "User's new home is in Porto": one named by a noun of home (WordNet's residence or dwelling) whose value is a
 * place name, read as the home. `attribute` and `value` as the table of lib/text/slots.ts reads them.
 */
export function attributeHome(text: string, attribute: string, value: string): KindSlot | undefined {
  const words = attribute.split(" ");
  // "User's new home is Porto"; not someone else's ("User's sister's home is…") nor another home ("holiday home").
  if (attribute.includes("'") || words.length > 2 || !isDwelling(words.at(-1)!)) return undefined;
  if (words.length === 2 && !isMostlyAdjective(words[0]!)) return undefined;
  const tokens = trimEnd(text.trim(), ".!?").split(/\s+/);
  const valueWords = value.replace(/^in /, "").split(" ").length;
  const place = placeNameAt(tokens.slice(-valueWords).join(" "));
  return place ? { key: "residence", value: placeValue(place) } : undefined;
}

export function attributeJob(attribute: string, value: string): KindSlot | undefined {
  // "User's sister's job title is nurse" is the sister's job.
  if (attribute.includes("'") || !attribute.split(" ").some((word) => isKindOf(word, ["occupation"]))) return undefined;
  const words = value.split(" ");
  return jobOf(words, ARTICLES.has(words[0]!) ? 1 : 0);
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
 * job from, never fewer; and every "user's … is" attributeJob and attributeHome read (their job, their home, as
 * "is a resident of" is a home read after "is a").
 */
const SQL_ADVERBS = `( (${[...ADVERBS_BESIDE_A_VERB].join("|")}))*`;
export const MAY_NAME_A_JOB = `^user${SQL_ADVERBS} (is|became|has${SQL_ADVERBS} become)${SQL_ADVERBS} an? |^user (.* )?as an? |^user's .+ (is|are) `;

/** "User started a new job as a teacher": "as a" and an occupation, after a word of employment. */
function jobAfterAs(words: string[]): KindSlot | undefined {
  for (let at = 1; at < words.length - 2; at++) {
    // Another clause ("User likes tea and works as…") is not read here.
    if (words[at] === "and" || words[at] === "but") return undefined;
    if (words[at] === "as" && ARTICLES.has(words[at + 1]!) && words.slice(1, at).some(isWorkWord)) {
      const before = words.slice(1, at);
      return heldNoLonger(before) || aimedOrAnothers(before) ? undefined : jobOf(words, at + 2);
    }
  }
  return undefined;
}

/**
 * Whether the words before "as a" say the user holds the job no more, or never took it, so it is not their job now: a
 * negation ("doesn't have a job as"), "used to", an adverb of former time ("formerly had a job as"), a verb of ending
 * ("quit their job as", "was laid off from their job as", "retired from their post as") or of refusing ("declined a
 * job as", "turned down a job as"), as lib/text/word-kinds.ts reads them.
 */
function heldNoLonger(words: string[]): boolean {
  return words.some(
    (word, at) =>
      NEGATION.test(word) ||
      (word === "used" && words[at + 1] === "to") ||
      isOfFormerTime(word) ||
      endsHolding(word, words[at + 1]) ||
      turnsDown(words, at),
  );
}

const NEGATION = /^(?:not|never|no)$|n't$/;

/**
 * Whether the words before "as a" make the job an aim ("wants to work as", "dreams of working as") or someone else's
 * ("has a sister who works as", "their brother works as"): a word of work after "to" or "of", a clause opening, or a
 * person.
 */
function aimedOrAnothers(words: string[]): boolean {
  return words.some(
    (word, at) =>
      (isWorkWord(word) && /^(?:to|of)$/.test(words[at - 1] ?? "")) ||
      // "wants a job as", "applied for a job as", "interviewed for a job as", "got a job offer as", "is looking for work
      // as": a search, or what was offered.
      SEEKING.test(word) ||
      CLAUSE_OPENINGS.has(word) ||
      isPersonWord(word),
  );
}
const CLAUSE_OPENINGS = new Set(["who", "whose", "which", "that"]);
const SEEKING =
  /^(?:wants?|wanted|seeks?|seeking|appl(?:y|ies|ied)|applying|looking|hopes?|hoping|plans?|planning|interview\w*|offer\w*|callbacks?|finalists?|shortlisted)$/;

/** The noun phrase from `from` up to a preposition or the end, when its head (its last word) is an occupation. */
function jobOf(words: string[], from: number): KindSlot | undefined {
  let end = from;
  // An adverb ends it too: "a nurse now".
  while (end < words.length && !PHRASE_ENDS.has(words[end]!) && !ADVERBS_BESIDE_A_VERB.has(words[end]!)) end++;
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
  if (!verb) return undefined;
  if (form === "progressive" && ARTICLES.has(verb)) return residentOf(tokens.slice(at + 1));
  if (form !== "progressive" && !verb.endsWith("ed")) {
    const called = homeCalled(tokens.slice(at + 1));
    if (called) return called;
  }
  if (!isResidenceVerb(verb)) return undefined;
  if (form === "present" && verb.endsWith("ed")) form = "past";
  // "stays in Lisbon every summer" is a habit, not a home: in the present the verb must mean living somewhere.
  if (form === "present" && !residenceIsFirstSense(verb) && !takesUpResidence(verb)) return undefined;
  // "is settled in Porto": the participle of taking up a residence says where the user lives now.
  const settled = verb.endsWith("ed") && takesUpResidence(verb);
  if (form === "progressive" && !settled && !(verb.endsWith("ing") && residenceIsFirstSense(verb))) return undefined;
  if (form === "past" && !takesUpResidence(verb)) return undefined;
  if (form === "perfect" && !residenceIsFirstSense(verb) && !takesUpResidence(verb)) return undefined;
  // "moved house to Porto", "moved home to Ghent": the dwelling the verb takes is not the place.
  const object = isDwelling(lower[at + 1] ?? "") ? at + 2 : at + 1;
  const place = placeAfterVerb(tokens.slice(object).join(" "));
  return place ? { key: "residence", value: placeValue(place) } : undefined;
}

/**
 * "User is a resident of Porto", "User is an inhabitant of Ghent": after "is a", a noun under WordNet's inhabitant or
 * occupant, "of" or "in", and a place name.
 */
function residentOf(phrase: string[]): KindSlot | undefined {
  const noun = phrase[0]?.toLowerCase() ?? "";
  if (!isKindOf(noun, ["inhabitant", "occupant"])) return undefined;
  const place = /^(?:of|in)\s+(\S.*)$/i.exec(phrase.slice(1).join(" "))?.[1];
  const name = place === undefined ? undefined : placeNameAt(place);
  return name ? { key: "residence", value: placeValue(name) } : undefined;
}

/**
 * "calls Lisbon home", "has made Ghent their home": a place name, then a noun of home (under WordNet's
 * residence: "home", "abode"), with an owner or not, ending the statement: the place is the home, whatever the verb. `object` is the
 * tokens after a verb in the present or the perfect ("called Lisbon home" is where the user used to live).
 */
const OWNERS = new Set(["their", "his", "her", "my", "our"]);

function homeCalled(object: string[]): KindSlot | undefined {
  const place = placeNameAt(object.join(" "));
  if (!place) return undefined;
  const rest = object.slice(place.split(/\s+/).length).map((token) => token.toLowerCase());
  const noun = OWNERS.has(rest[0] ?? "") ? rest.slice(1) : rest;
  return noun.length === 1 && isKindOf(noun[0]!, ["residence"])
    ? { key: "residence", value: placeValue(place) }
    : undefined;
}

function skipAdverbs(words: string[], from: number): number {
  let at = from;
  while (at < words.length && ADVERBS_BESIDE_A_VERB.has(words[at]!)) at++;
  return at;
}

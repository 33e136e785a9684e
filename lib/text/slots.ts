import { statementHeldForAWhileOrAhead, toldOfAChildhood } from "@/lib/text/held-for-a-while";
import { placeNameAt, placeValue } from "@/lib/text/place-names";
import { attributeHome, attributeJob, kindSlotOf } from "@/lib/text/slot-kinds";
import { trimEnd } from "@/lib/text/trim";
import { asUserStatement, limitsAValue } from "@/lib/text/user-statement";
import { baseForms, isBeginning, isKindOf, isTimePeriod, verbSenseMatches } from "@/lib/text/word-kinds";

/**
 * Which fact about the user a memory holds, so a new statement of the same fact updates the memory instead of
 * contradicting it ("User lives in Toronto" → "User lives in Vancouver"). Memories are matched in the offline
 * model's words ("User …") and in a hosted model's ("The user …").
 */

export interface Slot {
  /** What the fact is about: "residence", "job", "attribute:favourite colour". */
  key: string;
  value: string;
}

interface SlotRule {
  key: string | ((match: RegExpMatchArray) => string);
  pattern: RegExp;
  /** The group holding the value; 1 unless said. */
  value?: (match: RegExpMatchArray) => string;
  /** Whether the value read is one of the slot's; the next rule is tried when it is not. */
  accepts?: (value: string) => boolean;
}

/**
 * Facts that hold one value at a time, tried in order on the lower-cased memory text with "the user" read as
 * "user". The first that matches decides. The text is one line (see normalize), so after a lazy value the rest is
 * `[\s\S]+`, which cannot fail once reached: with `.+$` the engine would rescan the rest from every " at " or " to ".
 */
const SINGLE_VALUED: SlotRule[] = [
  { key: "name", pattern: /^user's (?:(?:full|first) )?name is (.+)$/ },
  {
    key: "residence",
    pattern:
      /^user (?:now |currently |still )?(?:lives|is living|resides|is (?:now |currently |still )?based|has lived|has been living) in (.+)$/,
  },
  {
    key: "residence",
    pattern:
      /^user (?:(?:has|have) )?(?:just |recently )?(?:moved|relocated) to (?!(?:a|an|another|their|the new)\b)(.+)$/,
  },
  { key: "residence", pattern: /^user's home is in (.+)$/ },
  { key: "residence", pattern: /^user's (?:current )?home city is (.+)$/ },
  {
    key: "job",
    pattern:
      /^user (?:now |currently |still )?(?:works|is (?:now |currently |still )?(?:working|employed)) as (?:an? )?(.+?)(?: (?:in|at|for|with) [\s\S]+)?$/,
  },
  { key: "job", pattern: /^user's (?:job|occupation|profession|role) is (?:an? )?(.+)$/ },
  // "User is a nurse at St Mary's", "a barista at a cafe"; not "a student at a language school" or "a guest at a hotel".
  {
    key: "job",
    pattern: /^user is an? (.+?) (?:at|for) [\s\S]+$/,
    accepts: (value) => !isKindOf(lastWord(value), NOT_STAFF),
  },
  { key: "employer", pattern: /^user (?:works|is working) (?:at|for) (.+)$/ },
  { key: "origin", pattern: /^user (?:is|comes) from (.+)$/ },
  { key: "birthplace", pattern: /^user was born in (.+)$/ },
  { key: "age", pattern: /^user is (\d+)(?: years old)?$/ },
  // "prefers tea over coffee" and "prefers coffee over tea" are one choice between the same two things.
  {
    key: (m) => `choice:${[m[1], m[2]].sort().join("|")}`,
    pattern: /^user prefers (.+?) (?:over|to|rather than) ([\s\S]+)$/,
    value: (m) => m[1]!,
  },
  { key: (m) => `preference:${m[2]}`, pattern: /^user prefers (.+?) (?:for|when|in|with) ([\s\S]+)$/ },
  { key: (m) => `attribute:${m[1]}`, pattern: /^user's (.+?) (?:is|are) ([\s\S]+)$/, value: (m) => m[2]! },
];

/**
 * The single-valued rules with a fixed key, as PostgreSQL regular expressions, for the consolidation finder's slot
 * pairs (lib/memory/consolidation/candidates.ts), tried in order on text normalized as `normalize` does. The patterns
 * carry over as they are but for JavaScript's word boundary, `\b`, which PostgreSQL writes `\y` (its `\b` is a
 * backspace).
 */
export const FIXED_SLOT_PATTERNS: ReadonlyArray<{ key: string; pattern: string }> = SINGLE_VALUED.flatMap((rule) =>
  typeof rule.key === "string" && !rule.value
    ? [{ key: rule.key, pattern: rule.pattern.source.replaceAll("\\b", "\\y") }]
    : [],
);

/** Facts that accumulate: a second allergy or language is another memory, never a replacement of the first. */
const MANY_VALUED =
  /^user (?:\w+ )?(?:likes|loves|enjoys|adores|hates|dislikes|is allergic to|is intolerant to|is afraid of|speaks|plays|has|owns|eats|drinks|watches|reads|collects|is interested in|is learning|studies|follows|supports|visited|has been to)\b/;

/** MANY_VALUED as a PostgreSQL regular expression, for the consolidation finder (as FIXED_SLOT_PATTERNS). */
export const MANY_VALUED_PATTERN = MANY_VALUED.source.replaceAll("\\b", "\\y");

/**
 * The slot a memory's text fills, if it is one of the known single-valued facts: the table's, or a job or a home read
 * by grammar and WordNet (lib/text/slot-kinds.ts), which the consolidation finder pairs in TypeScript.
 */
export function slotOf(written: string): Slot | undefined {
  const statement = statementOf(written);
  return statement === undefined ? undefined : slotOfStatement(statement);
}

/**
 * The memory as a statement about the user, up to a ";" or a dash between blanks: what follows is a thought of its
 * own ("Lives in Porto; finds it lovely", "Works as a teacher; the job keeps them busy"). A sentence's end is left to
 * the readers: a stop may end an abbreviation ("(approx. 8 years)"), a question mark make a value no value.
 */
function statementOf(written: string): string | undefined {
  const [first, ...asides] = written.split(ASIDE_AFTER);
  // An aside that limits the value ("Occupation: nurse; retired", "Location: Tokyo — on a business trip"): no value of
  // a slot now, undefined.
  return asides.some(limitsAValue) ? undefined : asUserStatement(first!);
}
const ASIDE_AFTER = /;|\s[–—-]\s/;

/** slotOf of a text already put as a statement about the user. */
function slotOfStatement(written: string): Slot | undefined {
  // "User is also a photographer", "User's side hustle is…": a value beside the one the slot holds, not instead of it;
  // "User lives in Porto temporarily", "moves to Berlin next month", "moved to Porto when they were a kid": one for a
  // while, ahead or in a childhood, not the one now. A bracket is read for those ("(part-time)", "(until June)"), then
  // left out of the value: "was hired as an architect (a couple of weeks ago)" holds an architect.
  const limited = [...written.matchAll(BRACKETED)].some(([bracket]) => limitsAValue(bracket.slice(1, -1)));
  if (
    limited ||
    BESIDE_ANOTHER.test(normalize(written)) ||
    heldBefore(written) ||
    toldOfAChildhood(written) ||
    statementHeldForAWhileOrAhead(written)
  ) {
    return undefined;
  }
  const text = written.replace(BRACKETED, " ").replace(/\s+/g, " ").trim();
  const normalized = normalize(text);
  for (const rule of SINGLE_VALUED) {
    const match = normalized.match(rule.pattern);
    if (match) {
      const key = typeof rule.key === "string" ? rule.key : rule.key(match);
      const value = rule.value ? rule.value(match) : match[1]!;
      if (rule.accepts && !rule.accepts(value)) continue;
      // "User's job title is nurse" is the job, as "User's job is nurse" is; "User's new home is Porto" the home.
      const attribute = key.startsWith("attribute:") ? key.slice("attribute:".length) : undefined;
      const kind = attribute && (attributeJob(attribute, value) ?? attributeHome(text, attribute, value));
      return kind || { key, value: key === "residence" ? homeOf(text, value) : value };
    }
  }
  return kindSlotOf(text, normalized);
}

// A bracket, one deep; an unclosed one is left as it is.
const BRACKETED = /\([^()]*\)/g;
const BESIDE_ANOTHER = /\b(?:also|too|as well|side|second|amateur|hobby|volunteer\w*)\b/;
const lastWord = (text: string) => text.split(" ").at(-1) ?? "";
/** Who is at a place without working there: a learner, a guest, a customer, a patient, a member. */
const NOT_STAFF = ["learner", "enrollee", "guest", "visitor", "customer", "patient", "member", "client"];

/**
 * A value the user held before: the statement's verb is the past of one of holding ("User worked as a waiter during
 * university", "spent ten years as a teacher", "had a summer job as a lifeguard", "was a teacher", "was employed as").
 * The past of a beginning holds now ("moved to", "became", "started", "was hired as"), as does the perfect ("has lived
 * in"). Read on the text as given or as `normalize` gives it.
 */
export function heldBefore(text: string): boolean {
  const normalized = normalize(text);
  const verb = /^user (?:(?:just|recently|once|previously|briefly) )?([a-z]+)/.exec(normalized)?.[1] ?? "";
  if (HOLDING_PASTS.has(verb)) return !passiveOfHiring(normalized);
  return /ed$/.test(verb) && baseForms(verb).some((base) => HOLDING.has(base)) && !isBeginning(verb);
}
/** "was hired as", "was promoted to": one of its two usual senses is hiring, appointing or promoting someone. */
const passiveOfHiring = (normalized: string) => {
  const participle = /^user (?:was|were) (?:just |recently )?([a-z]+ed)\b/.exec(normalized)?.[1];
  return (
    participle !== undefined &&
    !baseForms(participle).some((base) => HOLDING.has(base)) &&
    verbSenseMatches(participle, HIRING, 2)
  );
};
const HIRING = /\b(?:hire|appoint\w*|promot\w*|assign\w*|engage)\b/;
/** Verbs of holding a job or a home: their past says it was held ("was employed as" too, though WordNet hires so). */
const HOLDING = new Set(["work", "serve", "employ", "live", "stay", "reside", "remain"]);
/** The irregular pasts of verbs of holding: be, have, spend. */
const HOLDING_PASTS = new Set(["was", "were", "had", "spent"]);

/**
 * A home the table read ("new york city last year" of "User moved to New York City last year") as the place reader
 * reads it where the text names a place there, so it is the value slot-kinds.ts gives "User settled in New York City";
 * else as the table read it ("a flat near the sea"). The table's value is the normalized text's last words, and
 * normalizing keeps the words of a text, so they are the last words of the text itself, capitals and all.
 */
function homeOf(text: string, value: string): string {
  const words = trimEnd(text.trim(), ".!?").split(/\s+/);
  const place = placeNameAt(words.slice(-value.split(" ").length).join(" "));
  return place ? placeValue(place) : value;
}

/** A slot's value as two readings of it are compared: lower case, punctuation read as spaces ("sky-blue" = "sky blue"). */
export const comparableValue = (value: string): string =>
  value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s']/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * Two statements fill the same slot when the table says so, when one negates the other ("likes coffee" / "doesn't
 * like coffee"), or, for facts the table does not know, when they share their opening and differ only in the value
 * at the end ("prefers dark mode" / "prefers light mode").
 */
export function sameSlot(writtenA: string, writtenB: string): boolean {
  const [a, b] = [statementOf(writtenA), statementOf(writtenB)];
  if (a === undefined || b === undefined) return false;
  const left = slotOfStatement(a);
  const right = slotOfStatement(b);
  if (left && right) return left.key === right.key;
  if (negates(a, b)) return true;
  if (left || right || MANY_VALUED.test(normalize(a)) || MANY_VALUED.test(normalize(b))) return false;
  return similarOpening(a, b);
}

function normalize(text: string) {
  const lower = text
    .trim()
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^the user\b/, "user");
  return trimEnd(lower, ".!?").replace(/\s+/g, " ");
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
const NEGATORS = new Set(["not", "doesn't", "does", "don't", "no", "longer", "never", "isn't"]);

/** "User likes coffee" and "User doesn't like coffee": the same words but for a negation. */
function negates(a: string, b: string) {
  const stem = (text: string) =>
    words(text)
      .filter((word) => !NEGATORS.has(word))
      .map((word) => word.replace(/ies$/, "y").replace(/s$/, "").replace(/e$/, ""))
      .join(" ");
  const negations = (text: string) => words(text).filter((word) => NEGATORS.has(word)).length;
  return negations(a) !== negations(b) && stem(a) === stem(b);
}

const OPENING_WORDS = new Set(["user", "user's", "the", "is", "are", "was", "has", "have", "a", "an", "now", "still"]);

function similarOpening(a: string, b: string): boolean {
  const left = words(a);
  const right = words(b);
  let prefix = 0;
  while (prefix < Math.min(left.length, right.length) && left[prefix] === right[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < Math.min(left.length, right.length) - prefix &&
    left[left.length - 1 - suffix] === right[right.length - 1 - suffix]
  ) {
    suffix++;
  }
  const restLeft = left.length - prefix - suffix;
  const restRight = right.length - prefix - suffix;
  if (prefix < 2 || restLeft === 0 || restRight === 0) return false;
  // "User is vegetarian" / "User is diabetic": an opening of being alone says no slot; "goes running every morning" /
  // "every evening": two times of one habit are two habits.
  if (left.slice(0, prefix).every((word) => OPENING_WORDS.has(word))) return false;
  const differing = [...left.slice(prefix, left.length - suffix), ...right.slice(prefix, right.length - suffix)];
  if (differing.every(isTimePeriod)) return false;
  if (suffix >= 1) return restLeft <= 2 && restRight <= 2;
  return left.length === right.length && restLeft === 1;
}

import { ADVERBS_BESIDE_A_VERB } from "@/lib/text/function-words";
import { statementHeldForAWhileOrAhead, toldOfAChildhood } from "@/lib/text/held-for-a-while";
import { placeAfterVerb, placeNameAt } from "@/lib/text/place-names";
import { slotOf } from "@/lib/text/slots";
import { trimEnd } from "@/lib/text/trim";
import {
  isLikingVerb,
  isResidenceVerb,
  isTimePeriod,
  residenceIsFirstSense,
  takesUpResidence,
  turnsDown,
} from "@/lib/text/word-kinds";
import { isVerb } from "@/lib/text/wordnet";
import { asInstruction, resolveThem } from "./antecedents";
import { inStatementOrder, isThirdPersonVerb } from "./constructions";
import { lastingState } from "./lasting-states";
import { capitalize, conjugate, innerPronouns, instructionPronouns, stripTrailing } from "./third-person";

/**
 * The offline model's reading of English statements: a sentence is split into clauses, each first-person clause
 * ("I work as a nurse", "my name is Priya", "I'm allergic to peanuts") becomes one fact about the user written in
 * the third person ("User works as a nurse"), and small talk, moods and questions become nothing. General grammar
 * rules over small word classes (verbs people state facts with, words for passing moods), never whole phrases.
 */

/** One fact read from a user message. */
export interface Fact {
  /** The memory to write, in the third person: "User lives in Lisbon". */
  content: string;
  /** The clause the fact was read from: always an exact substring of the message. */
  quote: string;
}

/** Verbs people state lasting facts about themselves with (base form): "I speak Portuguese" is a fact. */
const FACT_VERBS = new Set(
  (
    "prefer like love enjoy adore hate dislike detest loathe use work live own have speak study teach eat drink " +
    "play drive ride cook bake read watch listen write run swim cycle hike practice practise support follow collect " +
    "volunteer avoid wear keep grow sing paint code program develop design manage lead attend belong come go train " +
    "commute rent take celebrate fly sail climb ski surf dance knit garden raise coach mentor fish travel visit " +
    "exercise meditate care identify"
  ).split(" "),
);
/** Past forms that state a lasting fact or a life event: "I grew up in Porto", "I used to smoke". */
const PAST_FACT_VERBS = new Set(
  (
    "moved grew studied worked lived started joined retired graduated married met bought adopted switched quit left " +
    "founded became used got sold raised"
  ).split(" "),
);
/**
 * Adverbs of frequency, which make any verb a habit ("I usually cycle"); the other adverbs that may stand between "I"
 * and the verb are lib/text/function-words.ts's.
 */
const FREQUENCY = new Set(
  "always usually often sometimes never rarely seldom normally generally regularly typically occasionally".split(" "),
);
/** Adverbs that only link a statement to the conversation ("I also like…"), dropped from the memory. */
const DISCOURSE_ADVERBS = new Set(["also", "actually", "just", "now", "really"]);
/** The same, right after "I'm", "I was" or "I have": "I'm also allergic to shellfish". */
const LINKING_ADVERBS = /^(?:(?:also|actually|just|now)\s+)+/i;
/** Verbs of talking and thinking: "I think so", "I guess", "I see" are conversation, not facts. */
const TALK_VERBS = new Set(
  (
    "think guess mean know see hope wonder feel agree understand want need suppose believe say said forgot " +
    "remember forget wish doubt bet reckon assume imagine get would will should could can must may might"
  ).split(" "),
);
/** Nouns after "my" that belong to the conversation: "my question is…", "my point is…". */
const DISCOURSE_NOUNS = new Set(
  "question point guess bad pleasure answer issue problem request idea thought concern understanding".split(" "),
);
/** Objects of "I have" that are conversation, not possessions: "I have a question". */
const HAVE_DISCOURSE = /^(?:to\b|got to\b|no idea\b|an? (?:quick |small |other )?(?:question|idea|feeling|doubt)s?\b)/i;

/*
 * A clause's rest is read as `\s+(\S.*)$`, never `\s+(.+)$`: both \s+ and .+ take blanks, so on a clause that fails at
 * its end the engine would try every way to share a run of blanks between them (quadratic in the run). Patterns are
 * literals so the ReDoS test (tests/security/redos.test.ts) can check each one.
 */
const I_AM = /^i(?:['’]m|\s+am)\s+(\S.*)$/i;
const I_WAS = /^i\s+was\s+(\S.*)$/i;
const I_HAVE = /^i(?:['’]ve|\s+have)\s+(?:got\s+)?(\S.*)$/i;
const WE_HAVE = /^we(?:['’]ve|\s+have)\s+(?=(\S+))/i;
const I_WOULD_RATHER = /^i(?:['’]d|\s+would)\s+rather\s+(\S.*)$/i;
const NAME =
  /^(?:my\s+(?:(?:full|first)\s+)?name(?:\s+is|['’]s)|call\s+me|i\s+go\s+by|i(?:['’]m|\s+am)\s+called|people\s+call\s+me)\s+(\S.*)$/i;
const CAPITALIZED_NAME = /^\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)?$/u;
const MOVED =
  /^(?:i|we)(?:['’]ve|\s+have)?\s+(?:(?:just|recently|finally|also|actually)\s+)*(?:moved|relocated)\s+(?:back\s+)?to\s+(\S.*)$/i;
const MY_THING =
  /^my\s+([\p{L}\p{N}'’-]+(?:\s+[\p{L}\p{N}'’-]+){0,3}?)\s+(is|are|was|were|has|have|lives|works|likes|loves|hates|prefers|speaks|plays|studies|goes|comes|teaches)\s+(\S.*)$/iu;
/** "My flight to Bologna leaves on …": any verb WordNet knows, in the third person (constructions.ts). */
const MY_THING_DOES = /^my\s+([\p{L}\p{N}'’-]+(?:\s+[\p{L}\p{N}'’-]+){0,3}?)\s+(\p{L}+s)\s+(\S.*)$/iu;
const MY_X_AND_I = /^my\s+([\p{L}'’-]+(?:\s+[\p{L}'’-]+)?)\s+and\s+i\s+(\S.*)$/iu;
const INSTRUCTION = /^(?:please\s+)?(?:always|never|don't|do\s+not|avoid|make\s+sure)\b/i;
const STANDALONE_INSTRUCTION = /^(?:please\s+)?(?:always|never)\s+\S+\s+\S+/i;
const FROM_NOW_ON = /^(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future)[,:]?\s+(\S.*)$/i;
const REMEMBER =
  /^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:remember|note|keep\s+in\s+mind|don't\s+forget)(?:\s+that)?[,:]?\s+(\S.*)$/i;

/**
 * Where a sentence may split into clauses: "and", "but", "plus" (after a comma or not), a semicolon, or "so". The
 * split is taken only when both sides are statements, so "I like salt and pepper" stays one fact. A match starts at
 * a comma, a semicolon or a blank and takes the whole run of blanks after it, so the engine reads a run once (a
 * pattern that may start anywhere in a run, like /\s*[,;]?\s+and\s+/, rescans it from each blank and is cubic in
 * its length); a run or a comma with no conjunction after it matches without a word and splits nothing.
 */
const SEPARATOR = /[,;]?\s+(?:(and|but|plus|so)\s+)?|;\s*/gi;

/** The facts a statement sentence (lead-ins removed) states; none for small talk. */
export function readStatement(text: string, options: { greeted?: boolean } = {}): Fact[] {
  const core = stripTrailing(text);
  const remember = core.match(REMEMBER);
  if (remember) return readClauses(tail(core, remember[1]!), { ...options, explicit: true });
  return readClauses(core, options);
}

/** True when the text asks to remember something, even as a question ("Can you remember that…?"). */
export function isRememberRequest(text: string) {
  return REMEMBER.test(stripTrailing(text));
}

interface ReadOptions {
  greeted?: boolean;
  /** The user asked to remember this: whatever it says is kept, in the third person. */
  explicit?: boolean;
  /** A clause without a subject after an "I" clause shares its "I" (default true). */
  elide?: boolean;
}

function readClauses(text: string, options: ReadOptions): Fact[] {
  const facts: Fact[] = [];
  let start = 0;
  let previous: string | null = null;
  for (const separator of text.matchAll(SEPARATOR)) {
    if (!separator[1] && !separator[0].includes(";")) continue;
    const left = text.slice(start, separator.index);
    const right = text.slice(separator.index + separator[0].length);
    const word = separator[1]?.toLowerCase();
    const leftFact = readClause(left, options, previous);
    if (!leftFact && !(options.explicit && left.trim())) continue;
    const consequence = word === "so" && /^\s*[,;]/.test(separator[0]);
    // After "so", a clause without a subject is an instruction ("…, so never suggest…"), not a second "I …".
    const rightFact = readClause(right, { ...options, explicit: false, elide: word !== "so" }, left);
    if (!rightFact && !consequence) continue;
    facts.push({ content: leftFact ?? thirdPerson(left), quote: left.trim() });
    previous = left;
    start = separator.index + separator[0].length;
    if (!rightFact) {
      // "…, so never suggest recipes with them": a standing instruction when it reads as one; otherwise the
      // consequence is no fact of its own and is dropped.
      const instruction = INSTRUCTION.test(right) ? asInstruction(right, left) : null;
      if (instruction) facts.push({ content: instruction, quote: right.trim() });
      return facts;
    }
  }
  const rest = text.slice(start);
  const last = readClause(rest, options, previous) ?? (options.explicit && rest.trim() ? thirdPerson(rest) : null);
  if (last) facts.push({ content: last, quote: rest.trim() });
  return facts;
}

/** Words that only tie a clause to the moment ("I like tea too"), dropped when they end it after a blank. */
const TRAILING_FILLER = /(?:too|as well|now|these days|nowadays)$/i;

/**
 * The clause without a trailing filler and the blanks (and comma) before it. The blanks are trimmed by hand: a
 * pattern such as /,?\s+(?:too|now)$/ rescans a long run of blanks from each of them.
 */
function withoutTrailingFiller(clause: string): string {
  const filler = TRAILING_FILLER.exec(clause);
  if (!filler) return clause;
  const before = clause.slice(0, filler.index);
  const kept = trimEnd(before);
  // "I know": the filler must stand as a word of its own.
  if (kept.length === before.length) return clause;
  return kept.endsWith(",") ? kept.slice(0, -1) : kept;
}

/**
 * One clause as a fact, or null when it states nothing lasting. `previous` is the clause before it in the sentence:
 * "I live in Lisbon and work as a nurse" lends "I" to "work as a nurse", and a "them" refers to its last noun.
 */
function readClause(raw: string, options: ReadOptions, previous: string | null = null): string | null {
  let clause = stripTrailing(raw)
    .replace(/^(?:(?:and|but|plus|so|also|then|now|actually|these days|nowadays)\b[,\s]*)+/i, "")
    .replace(/,\s*not\s[^,]+$/i, "");
  clause = inStatementOrder(withoutTrailingFiller(clause));
  if (!clause) return null;
  if (options.elide !== false && previous && /^i\b/i.test(previous.trim()) && opensVerbPhrase(clause)) {
    clause = `I ${clause}`;
  }
  let fact = firstPerson(clause, options);
  if (fact && previous && /\bthem\b/i.test(fact)) fact = resolveThem(fact, previous);
  // "I love it", "I'm allergic to them": out of the conversation nobody could tell what the memory is about.
  if (fact && !options.explicit && /\b(?:it|them)\b/i.test(fact)) return null;
  return fact;
}

function firstPerson(clause: string, options: ReadOptions): string | null {
  const name = clause.match(NAME);
  if (name) return `User's name is ${name[1]}`;
  const from = clause.match(FROM_NOW_ON);
  if (from) return `From now on, ${instructionPronouns(from[1]!)}`;
  if (STANDALONE_INSTRUCTION.test(clause) && !/^never\s+mind\b/i.test(clause)) return asInstruction(clause, null);

  const moved = clause.match(MOVED);
  if (moved) {
    // Where the user lives now is the lasting fact; "last month" would soon be wrong. Not a move for a while or one
    // told of a childhood ("We moved to Porto when I was a kid", "for a semester").
    const place = placeNameAt(moved[1]!);
    const lasting = !statementHeldForAWhileOrAhead(`User moved to ${moved[1]}`) && !toldOfAChildhood(moved[1]!);
    return place && lasting ? `User lives in ${trimEnd(place, ",")}` : `User moved to ${innerPronouns(moved[1]!)}`;
  }
  const am = clause.match(I_AM);
  if (am) {
    const state = am[1]!.replace(LINKING_ADVERBS, "");
    // "Hi, I'm Priya": an introduction names the user.
    if (options.greeted && CAPITALIZED_NAME.test(state)) return `User's name is ${state}`;
    return lastingState(state) ? `User is ${innerPronouns(state)}` : null;
  }
  const was = clause.match(I_WAS)?.[1]?.replace(LINKING_ADVERBS, "");
  if (was) return lastingState(was) ? `User was ${innerPronouns(was)}` : null;
  const rather = clause.match(I_WOULD_RATHER);
  if (rather) return `User would rather ${innerPronouns(rather[1]!)}`;
  // "We've settled in Porto", "we've lived in Lyon since 2019": "we" is the user only for where they live, and the
  // perfect stays one ("User has settled in Porto").
  const ours = WE_HAVE.exec(clause)?.[1];
  const have = (ours && isResidenceVerb(ours.toLowerCase()) ? clause.replace(WE_HAVE, "I've ") : clause).match(I_HAVE);
  if (have) {
    const object = have[1]!.replace(LINKING_ADVERBS, "");
    if (HAVE_DISCOURSE.test(object)) return null;
    const been = object.match(/^been\s+(\S.*)$/i);
    if (been) return lastingState(been[1]!) ? `User has been ${innerPronouns(been[1]!)}` : null;
    return `User has ${innerPronouns(object)}`;
  }
  const together = clause.match(MY_X_AND_I);
  if (together) {
    const rest = together[2]!;
    const gap = rest.search(/\s/);
    const verb = (gap < 0 ? rest : rest.slice(0, gap)).toLowerCase();
    if (FACT_VERBS.has(verb) || PAST_FACT_VERBS.has(verb)) {
      const object = gap < 0 ? "" : rest.slice(gap).trimStart();
      return `User and their ${together[1]} ${verb} ${innerPronouns(object)}`.trim();
    }
  }
  const mine = clause.match(MY_THING);
  if (mine) {
    const thing = mine[1]!;
    if (DISCOURSE_NOUNS.has(thing.toLowerCase())) return null;
    return `User's ${innerPronouns(thing)} ${mine[2]!.toLowerCase()} ${innerPronouns(mine[3]!)}`;
  }
  const acting = clause.match(MY_THING_DOES);
  // "My boss calls me every morning": the user, named as such ("them" would read as someone unnamed and be dropped);
  // "My colleagues and friends say hi" is no fact.
  if (acting && isThirdPersonVerb(acting[2]!) && !/\band\b/i.test(acting[1]!)) {
    if (DISCOURSE_NOUNS.has(acting[1]!.toLowerCase())) return null;
    return `User's ${innerPronouns(acting[1]!)} ${acting[2]} ${instructionPronouns(acting[3]!)}`;
  }
  return verbStatement(clause);
}

/**
 * "I [adverbs] [don't] verb …" when the verb states a fact (or a habit, after "usually", "never"…). "We …" includes the
 * user: "We settled in Lyon" is where the user lives.
 */
function verbStatement(clause: string): string | null {
  const words = clause.split(/\s+/);
  if (!/^(?:i|we)$/i.test(words[0] ?? "")) return null;
  let index = 1;
  const kept: string[] = [];
  let habit = false;
  while (index < words.length) {
    const word = words[index]!.toLowerCase();
    if (FREQUENCY.has(word)) habit = true;
    else if (!ADVERBS_BESIDE_A_VERB.has(word)) break;
    if (!DISCOURSE_ADVERBS.has(word)) kept.push(word);
    index++;
  }
  let negation: string | null = null;
  const next = words[index]?.toLowerCase().replace(/’/g, "'");
  const pair = `${next} ${words[index + 1]?.toLowerCase()}`;
  if (next === "don't" || next === "dont") negation = "doesn't";
  else if (next === "can't" || next === "cannot" || next === "won't" || next === "didn't") negation = next;
  else if (["do not", "can not", "will not", "did not"].includes(pair))
    negation = pair === "do not" ? "does not" : pair;
  if (negation) index += negation.includes(" ") ? 2 : 1;
  while (negation && index < words.length && ADVERBS_BESIDE_A_VERB.has(words[index]!.toLowerCase())) index++;
  const verb = words[index]?.toLowerCase();
  if (!verb || TALK_VERBS.has(verb)) return null;
  // "We" states a fact about the user only as where they live ("We settled in Lyon"); "We have a question about
  // pricing" is talk.
  if (/^we$/i.test(words[0]!) && !isResidenceVerb(verb)) return null;
  // A verb WordNet defines by residence ("reside", "settled") may state where the user lives.
  const residence = !FACT_VERBS.has(verb) && !PAST_FACT_VERBS.has(verb) && !habit && isResidenceVerb(verb);
  const past = PAST_FACT_VERBS.has(verb) || (residence && /ed$/.test(verb));
  const object = words.slice(index + 1).join(" ");
  const listed = FACT_VERBS.has(verb) || past || habit || residence;
  // "I spend weekends sailing": a plural time period after the verb makes a habit, as an adverb of frequency does.
  const first = object.split(" ")[0]!;
  if (/s$/.test(first) && isTimePeriod(first)) habit = true;
  // Only the plain present ("I reside", "I don't reside") is a habit; "I stayed", "I won't stay" may be a passing stay.
  const habitual = !past && (!negation || negation.startsWith("does"));
  if (residence && !habitual && !statesHome(verb, object)) return null;
  // "I like that idea", "I love you": about something in the conversation, not a fact to keep.
  if (/^(?:this|that|these|those|you|yours|it|them)\b/i.test(object)) return null;
  const rest = innerPronouns(object);
  const said = negation || past || !/^[a-z]+$/.test(verb) || (!listed && (/ed$/.test(verb) || !isVerb(verb)));
  const statement = ["User", ...kept, ...(negation ? [negation] : []), said ? verb : conjugate(verb), rest]
    .filter(Boolean)
    .join(" ");
  // A verb no list holds states a fact when WordNet reads it as a liking ("I relish…") or a habit, turns down a job or
  // a home ("I declined a job as a pilot": a fact of its own, no value of a slot), or when the statement fills the
  // home or job slot as lib/text/slots.ts reads it ("I call Lisbon home", "I retrained as a…").
  if (listed || habit || isLikingVerb(verb) || turnsDown(words, index)) return statement;
  const slot = slotOf(statement)?.key;
  return slot === "residence" || slot === "job" ? statement : null;
}

/**
 * Whether a verb of residence said in the past (or after "didn't", "won't") states a home, as "We settled in Lyon"
 * does: only a verb whose usual meaning is living somewhere ("resided") or taking up a home ("settled", "emigrated"),
 * and only with a place named by a proper noun. Otherwise it is a passing stay: "dwell" is only the third sense of
 * "stay", and "stayed in a hotel" or "stayed in Lisbon for three days" is no home.
 */
function statesHome(verb: string, object: string): boolean {
  if (!residenceIsFirstSense(verb) && !takesUpResidence(verb)) return false;
  return placeAfterVerb(object) !== undefined;
}

/** Rewrites a first-person statement so the memory reads correctly out of context ("I prefer" → "User prefers"). */
export function thirdPerson(statement: string): string {
  const text = stripTrailing(statement);
  const fact = firstPerson(text, {});
  if (fact) return fact;
  const subject: Array<[RegExp, string]> = [
    [/^i(?:['’]m|\s+am)\b/i, "User is"],
    [/^i don't\b/i, "User doesn't"],
    [/^i do not\b/i, "User does not"],
    [/^i(?:['’]ve|\s+have)\b/i, "User has"],
    [/^my\b/i, "User's"],
  ];
  for (const [pattern, replacement] of subject) {
    if (pattern.test(text)) return `${replacement}${innerPronouns(text.replace(pattern, ""))}`;
  }
  const verb = text.match(/^i\s+([a-z]+)\b(.*)$/i);
  if (verb) return `User ${conjugate(verb[1]!)}${innerPronouns(verb[2]!)}`;
  return capitalize(innerPronouns(text));
}

/** "work as a nurse", "never eat meat": a clause that lacks its subject "I" (after "I live in Lisbon and …"). */
function opensVerbPhrase(text: string) {
  const first = text.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  return (
    FACT_VERBS.has(first) || PAST_FACT_VERBS.has(first) || FREQUENCY.has(first) || ADVERBS_BESIDE_A_VERB.has(first)
  );
}

/** The part of `text` that a regex group matched at its end, as a slice, so quotes stay exact substrings. */
function tail(text: string, group: string) {
  return text.slice(text.length - group.length);
}

import { takesBack } from "./framing";
import { readParts } from "./parts";
import { type Fact, isRememberRequest, readStatement } from "./statements";
import { stripTrailing } from "./third-person";

export type { Fact } from "./statements";
export { thirdPerson } from "./statements";

/**
 * What a user message says to the memory, as the offline model reads it: the facts it states (one per clause), a
 * request to forget something, and a question. The chat and the background manager read messages the same way.
 */
export interface Reading {
  facts: Fact[];
  /** `quote` is the sentence that asked, an exact substring of the message. */
  forget?: { query: string; quote: string };
  question?: { query: string; quote: string };
}

const QUESTION_START =
  /^(what|what's|whats|who|whom|whose|when|where|which|why|how|do|does|did|is|are|am|was|were|can|could|should|would|will|have|has|tell me)\b/i;

/**
 * Words that open a sentence without being part of what it states: greetings, and markers such as "actually" or
 * "by the way". Removed one after another ("Oh, and by the way, …").
 */
const GREETING =
  /^(?:hi|hello|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening))(?:\s+there)?\b[\s,!.:;-]*/i;
const LEAD_IN =
  /^(?:(?:actually|by\s+the\s+way|btw|also|well|ok|okay|so|oh|and|but|anyway|anyways|plus|fyi|in\s+fact|sorry|no|oops|one\s+more\s+thing|just\s+so\s+you\s+know|for\s+the\s+record)\b|(?:correction|update)\s*:)[\s,!.:;-]*/i;
const FORGET =
  /^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?forget(?:\s+(?:that|about|what\s+i\s+said\s+about))?\s+(\S.*)$/i;

/**
 * The characters of a message the offline model reads. Its rules read each clause together with the rest of its
 * sentence, so their work grows faster than the text, and any guest may send the longest message the chat accepts;
 * a person stating facts to remember says them in far fewer characters, so a longer message (a pasted document) is
 * read from its start. Hosted models read whole messages.
 */
export const MAX_READ_CHARS = 2_000;

/** The start of `message` the offline model reads: at most MAX_READ_CHARS, cut before a blank so no word is halved. */
export function readablePart(message: string): string {
  if (message.length <= MAX_READ_CHARS) return message;
  let end = MAX_READ_CHARS;
  while (end > 0 && !BLANK.test(message[end]!)) end--;
  if (end > 0) return message.slice(0, end);
  // One unbroken word: cut it, but never between the two halves of a surrogate pair.
  const high = message.charCodeAt(MAX_READ_CHARS - 1);
  return message.slice(0, high >= 0xd800 && high <= 0xdbff ? MAX_READ_CHARS - 1 : MAX_READ_CHARS);
}

const BLANK = /\s/;
/**
 * A dash between blanks ends what was said before it ("I've been a nurse for years and we've settled in Porto — the
 * kids love their new school"): each side is read as a statement of its own, so no fact runs on into the next
 * thought. Not where what follows takes back or limits what came before ("I live in Berlin — actually no, …", "I'm a
 * nurse — or I was, until I retired"): read whole, the sentence states no fact of the first piece alone. Nor between
 * numbers ("9 - 5").
 */
function dashPieces(text: string): string[] {
  const pieces = text.split(SPACED_DASH);
  return pieces.slice(1).some(takesBack) ? [text] : pieces;
}
// One blank on each side: a run of blanks before a dash would be scanned again from each of its blanks.
const SPACED_DASH = /(?<!\d)\s[—–-]\s(?!\d)/;

export function readMessage(message: string): Reading {
  const reading: Reading = { facts: [] };
  let greeted = false;
  for (const sentence of sentences(readablePart(message))) {
    const { text, greeting } = stripLeadIns(sentence);
    greeted ||= greeting;
    const core = stripTrailing(text);
    if (!core) continue;
    const forget = core.match(FORGET);
    if (forget && !/^(?:it|that|this|about it)$/i.test(forget[1]!)) {
      reading.forget ??= { query: forget[1]!, quote: sentence };
      continue;
    }
    if (!isRememberRequest(core) && (sentence.endsWith("?") || QUESTION_START.test(core))) {
      reading.question ??= { query: searchQuery(core), quote: sentence };
      continue;
    }
    const facts = dashPieces(text).flatMap((piece) => readStatement(piece, { greeted }));
    reading.facts.push(...withParts(text, facts, readParts(text, { greeted })));
  }
  return reading;
}

/** A fact and where its quote is in the sentence. */
interface Placed {
  fact: Fact;
  from: number;
  to: number;
}

/**
 * A sentence's facts read clause by clause, with the home or job its parts state where no clause's quote covers them
 * and no clause says the same, in the order said: a later value updates an earlier one (./extraction.ts).
 */
function withParts(sentence: string, facts: Fact[], parts: Fact[]): Fact[] {
  // Each list's quotes found in order from where the one before it was, so a quote said twice keeps its own place.
  const placed = (list: Fact[]): Placed[] => {
    let from = 0;
    return list.map((fact) => {
      const at = Math.max(0, sentence.indexOf(fact.quote, from));
      from = at + fact.quote.length;
      return { fact, from: at, to: from };
    });
  };
  const read = placed(facts);
  // A part that says again what a clause said ("I live in Oslo and I love it, I moved to Oslo last year") adds nothing.
  const apart = (part: Placed) =>
    !read.some((other) => (part.from < other.to && other.from < part.to) || other.fact.content === part.fact.content);
  const more = placed(parts).filter(apart);
  // Stable: facts at one place keep the clause reading's order.
  return [...read, ...more].sort((a, b) => a.from - b.from).map((placement) => placement.fact);
}

/** Splits text into sentences, each an exact substring of the input. A dot inside "3.5" or after "Dr" ends none. */
export function sentences(text: string): string[] {
  const found: string[] = [];
  let start = 0;
  // A run of marks ends a sentence when a blank or the end follows it; that is checked by hand, since a lookahead in
  // the pattern would make the engine retry the run from each of its marks.
  for (const end of text.matchAll(/[.!?…]+|\n/g)) {
    const stop = end.index + end[0].length;
    if (end[0] !== "\n" && stop < text.length && !BLANK.test(text[stop]!)) continue;
    // Only the end of the sentence so far can be an abbreviation ("prof." and a letter before it at most).
    if (ABBREVIATION.test(text.slice(Math.max(start, stop - 8), stop))) continue;
    const sentence = text.slice(start, stop).trim();
    if (sentence) found.push(sentence);
    start = stop;
  }
  const rest = text.slice(start).trim();
  if (rest) found.push(rest);
  return found;
}

const ABBREVIATION = /\b(?:mr|mrs|ms|dr|st|prof|jr|sr|vs|etc|e\.g|i\.e)\.$/i;

function stripLeadIns(sentence: string): { text: string; greeting: boolean } {
  let text = sentence;
  let greeting = false;
  for (;;) {
    const match = text.match(GREETING) ?? text.match(LEAD_IN);
    if (!match?.[0]) return { text, greeting };
    greeting ||= GREETING.test(text);
    text = text.slice(match[0].length);
  }
}

/**
 * Questions about one of the user's facts ask in other words than the memory says it ("where do I live?" /
 * "User lives in Lisbon"): the search also gets the memory's words. Other questions are searched as they are.
 */
const QUESTION_TOPICS: Array<[{ test(question: string): boolean }, string]> = [
  [
    {
      test: (question) =>
        asksWhereTheyLive(question) || /\bmy\s+(?:city|address|home\s+town|hometown)\b/i.test(question),
    },
    "lives in",
  ],
  [/\b(?:job|work|occupation|profession|career|do\s+for\s+(?:a\s+)?living)\b/i, "works as job"],
  [/\bname\b|\bwho\s+am\s+i\b|\bcall(?:ed)?\s+me\b/i, "name"],
  [/\bhow\s+old\b|\bmy\s+age\b/i, "years old"],
  [/\ballerg/i, "allergic"],
];

/**
 * "Where do I live?": "where" and, later on the same line, a word for home. By hand, because a pattern such as
 * /\bwhere\b.*\blive\b/ scans to the end of the line from every "where" and is quadratic in their number.
 */
function asksWhereTheyLive(question: string): boolean {
  return question.split(/[\n\r\u2028\u2029]/).some((line) => {
    const where = /\bwhere\b/i.exec(line);
    return where !== null && /\b(?:live|living|based|stay|home)\b/i.test(line.slice(where.index + where[0].length));
  });
}

function searchQuery(question: string): string {
  const topic = QUESTION_TOPICS.find(([pattern]) => pattern.test(question))?.[1];
  return topic ? `${question} ${topic}` : question;
}

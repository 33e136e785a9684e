import { type Fact, isRememberRequest, readStatement, stripTrailing } from "./statements";

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
  /^(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?forget(?:\s+(?:that|about|what\s+i\s+said\s+about))?\s+(.+)$/i;

export function readMessage(message: string): Reading {
  const reading: Reading = { facts: [] };
  let greeted = false;
  for (const sentence of sentences(message)) {
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
    reading.facts.push(...readStatement(text, { greeted }));
  }
  return reading;
}

/** Splits text into sentences, each an exact substring of the input. A dot inside "3.5" or after "Dr" ends none. */
export function sentences(text: string): string[] {
  const found: string[] = [];
  let start = 0;
  for (const end of text.matchAll(/[.!?…]+(?=\s|$)|\n/g)) {
    const stop = end.index + end[0].length;
    if (/\b(?:mr|mrs|ms|dr|st|prof|jr|sr|vs|etc|e\.g|i\.e)\.$/i.test(text.slice(start, stop))) continue;
    const sentence = text.slice(start, stop).trim();
    if (sentence) found.push(sentence);
    start = stop;
  }
  const rest = text.slice(start).trim();
  if (rest) found.push(rest);
  return found;
}

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
const QUESTION_TOPICS: Array<[RegExp, string]> = [
  [/\bwhere\b.*\b(?:live|living|based|stay|home)\b|\bmy\s+(?:city|address|home\s+town|hometown)\b/i, "lives in"],
  [/\b(?:job|work|occupation|profession|career|do\s+for\s+(?:a\s+)?living)\b/i, "works as job"],
  [/\bname\b|\bwho\s+am\s+i\b|\bcall(?:ed)?\s+me\b/i, "name"],
  [/\bhow\s+old\b|\bmy\s+age\b/i, "years old"],
  [/\ballerg/i, "allergic"],
];

function searchQuery(question: string): string {
  const topic = QUESTION_TOPICS.find(([pattern]) => pattern.test(question))?.[1];
  return topic ? `${question} ${topic}` : question;
}

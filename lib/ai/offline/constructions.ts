import { TIME_PREPOSITIONS, TIME_QUALIFIERS } from "@/lib/text/function-words";
import { isTimePeriod } from "@/lib/text/word-kinds";
import { isAdverb, isVerb } from "@/lib/text/wordnet";

/**
 * Constructions that state a fact about the user in another order than "I …" or "My … is …", put back in that order
 * before a clause is read (lib/ai/offline/statements.ts), by grammar and WordNet rather than whole phrases:
 * - a sentence adverb with its comma ("Honestly, …") goes;
 * - a leading time expression ("Most weekends …", "Every Sunday …", "On Sundays …": a qualifier or a preposition of
 *   time and a WordNet time period) moves to the end, and "you'll find me" (or "you can see me", "you'll catch me") is
 *   "I'm": "I'm hiking most weekends";
 * - "There's a conference in Lyon that I'm attending" is "I'm attending a conference in Lyon";
 * - "Hiking is my favourite thing" is "My favourite thing is hiking".
 */
export function inStatementOrder(clause: string): string {
  let text = withoutSentenceAdverb(clause);
  text = withTimeLast(text);
  text = seenDoingIsDoing(text);
  return existentialAsStatement(text) ?? predicateFirst(text) ?? text;
}

function withoutSentenceAdverb(text: string): string {
  const comma = text.indexOf(",");
  const word = text.slice(0, comma);
  return comma > 0 && /^\p{L}+ly$/u.test(word) && isAdverb(word) ? text.slice(comma + 1).trimStart() : text;
}

function withTimeLast(text: string): string {
  const words = text.split(/\s+/);
  const first = words[0]?.toLowerCase() ?? "";
  if (!TIME_QUALIFIERS.has(first) && !TIME_PREPOSITIONS.has(first)) return text;
  const period = words[1]?.replace(/,$/, "") ?? "";
  if (!isTimePeriod(period) || words.length < 4) return text;
  const rest = words.slice(2).join(" ");
  return `${rest} ${words[0]!.toLowerCase()} ${period}`;
}

/** "you'll find me hiking", "you can usually see me at the pool": the speaker is doing it. */
const SEEN_DOING =
  /^you(?:['’]ll|\s+will|\s+can|\s+could|\s+would)?\s+(?:usually\s+|often\s+|always\s+)?(?:find|see|catch)\s+me\s+(\S.*)$/i;

function seenDoingIsDoing(text: string): string {
  const seen = text.match(SEEN_DOING);
  return seen ? `I'm ${seen[1]}` : text;
}

/** "There's a conference in Lyon on 2027-01-03 that I'm attending" → "I'm attending a conference in Lyon on …". */
function existentialAsStatement(text: string): string | null {
  const opening = /^there(?:['’]s|\s+is|\s+are)\s+/i.exec(text);
  if (!opening) return null;
  const lower = text.toLowerCase().replace(/’/g, "'");
  for (const relative of [" that i'm ", " which i'm ", " that i am ", " which i am ", " that i'll be ", " i'm "]) {
    const at = lower.lastIndexOf(relative);
    if (at <= opening[0].length) continue;
    const verb = text.slice(at + relative.length).trim();
    // The relative clause is one verb whose object is the thing named: "that I'm attending", "I'm going to".
    if (!/^\p{L}+ing(?:\s+(?:to|at|in|on))?$/u.test(verb)) continue;
    return `I'm ${verb} ${text.slice(opening[0].length, at)}`;
  }
  return null;
}

/** "Hiking in the mountains is my favourite thing" → "My favourite thing is hiking in the mountains". */
function predicateFirst(text: string): string | null {
  const lower = text.toLowerCase();
  const at = lower.indexOf(" is my ");
  if (at <= 0 || /^(?:i|my|it|this|that|there|what|who)\b/.test(lower)) return null;
  const subject = text.slice(0, at);
  const predicate = text.slice(at + " is my ".length);
  // "my" and one to three words, the last of them a noun: "favourite thing", "main hobby".
  if (!/^\p{L}+(?:\s+\p{L}+){0,2}$/u.test(predicate)) return null;
  // Only a gerund loses the capital the sentence gave it: "Sarah is my sister" keeps her name.
  const named = /^\p{L}+ing\b/u.test(subject) ? `${subject.charAt(0).toLowerCase()}${subject.slice(1)}` : subject;
  return `My ${predicate} is ${named}`;
}

/** "My flight to Bologna leaves on …": a third-person verb WordNet knows ("leaves" → "leave"), for MY_THING. */
export function isThirdPersonVerb(word: string): boolean {
  const lower = word.toLowerCase();
  if (!lower.endsWith("s") || lower.endsWith("ss")) return false;
  return isVerb(lower.slice(0, -1)) || (lower.endsWith("es") && isVerb(lower.slice(0, -2)));
}

import { statementHeldForAWhileOrAhead } from "@/lib/text/held-for-a-while";
import { slotOf } from "@/lib/text/slots";
import { STANDING_SLOT_KEYS, standingValueOf } from "@/lib/text/standing-values";
import { type Fact, readStatement } from "./statements";

/**
 * The user's home or job in a chatty sentence read no other way, part by part (docs/memory-model.md, "How memory gets
 * written"): people open with a fragment ("job switch too, I'm a teacher now", "New role too — I'm now a teacher"),
 * add one after a comma ("I'm a nurse, been doing it about eight years"), or leave out the "I" of a change after a
 * lead-in ("news from me: moved to Porto last month and started a new role as a teacher"). A part between commas,
 * dashes and colons that opens with "I", or after the first with the past of a verb of change, is read as a sentence
 * of its own, and kept only when it says where the user lives or what they work as, now and for good. Reading stops
 * at a part after words that make what follows someone else's ("my parents retired, moved to Florida", "my boss said:
 * I'm the team lead"), a supposition or a story ("if I got the job, …", "in the game, I'm a wizard"), a joke or a time
 * ("yeah right, …", "until June, …"). Quotes stay exact substrings of the message.
 */
export function readParts(sentence: string, options: { greeted?: boolean }): Fact[] {
  const parts = sentence.split(PART_BREAK).map((part) => part.trim());
  if (parts.length < 2) return [];
  const facts: Fact[] = [];
  for (const [index, part] of parts.entries()) {
    const before = parts.slice(0, index);
    if (before.some(framesAnother)) break;
    const text = part.replace(CONJUNCTION, "");
    const afterLeadIn = index > 0 && before.every((words) => LEAD_IN.test(words));
    const spoken = SPEAKER.test(text) ? text : afterLeadIn && dropsTheSpeaker(text) ? `I ${text}` : undefined;
    if (!spoken || FIGURATIVE.test(spoken) || statementHeldForAWhileOrAhead(`User ${spoken.replace(SPEAKER, "")}`))
      continue;
    const read = readStatement(spoken, options).filter((fact) => holdsAHomeOrJob(fact.content));
    facts.push(...read.map((fact) => ({ ...fact, quote: spoken === text ? fact.quote : withoutI(fact.quote) })));
  }
  return facts;
}

// One blank on each side at most: a run of blanks before a dash made the pattern scan it again from each blank.
const PART_BREAK = /,\s|\s[—–-]\s|:\s/;
const SPEAKER = /^i(?:'m|'ve|’m|’ve)?\s/i;
const CONJUNCTION = /^(?:(?:and|but|so|also|plus|oh|then|now)\b[\s,]*)+/i;
const withoutI = (quote: string) => (quote.startsWith("I ") ? quote.slice(2) : quote);

/** What opens news of one's own: "news from me", "quick update", "big news", "context". */
const LEAD_IN =
  /^(?:(?:ok|okay|so|and|quick|big|small|life|some|personal)\s)*(?:news|update|updates|context|fyi|background)(?:\s(?:from|on)\sme)?(?:\stoo)?[!.]*$/i;
/** Pasts of a lasting change a speaker reports without "I" ("moved to Porto", "started a new job as"). */
const CHANGES = new Set("moved relocated settled started joined switched became got landed accepted".split(" "));
const dropsTheSpeaker = (text: string) => CHANGES.has(text.split(/\s/)[0]?.toLowerCase() ?? "");

const holdsAHomeOrJob = (content: string) => {
  const slot = slotOf(content)?.key;
  return (
    slot === STANDING_SLOT_KEYS.home ||
    slot === STANDING_SLOT_KEYS.job ||
    (slot === undefined && standingValueOf(content) !== undefined && !/^User has been\b/.test(content))
  );
};

/**
 * A part after which what follows may not be the user's own statement: it names someone (a possessive, a pronoun, a
 * name), reports or judges words ("said", "goes", "think"), supposes, tells a story or jokes, or limits the time.
 */
function framesAnother(part: string): boolean {
  const words = part.split(/\s+/);
  // A capital past the first word is a name, but for a place after a word of place ("Leaving Lisbon", "in Porto").
  const named = (word: string, at: number) =>
    at > 0 && /^\p{Lu}/u.test(word) && word !== "I" && !PLACE_BEFORE.test(words[at - 1]!);
  return ANOTHER.test(part) || words.some(named);
}
const PLACE_BEFORE = /^(?:in|to|from|near|around|at|leaving|left|visiting|of)$/i;
const ANOTHER =
  /\b(?:my|his|her|their|our|your|he|she|they|him|them|we|said|says|say|goes|told|tells|asked|asks|like|think|thinks|thought|assume|assumes|believe|if|when|unless|once|imagine|dreams?|pretend|roleplay|story|game|movie|character|quote|sure|right|as if|until|till|next|for now|by|ha|haha|lol|lmao|jk|guess)\b|["“”]/i;
/** A part said in a figure: "I'm a pilot in my dreams", "I live in the clouds", "a doctor on TV", "a taxi driver for my kids". */
const FIGURATIVE = /\b(?:dreams?|clouds|tv|on screen|for my kids|in a game|in the game)\b/i;

import { statementHeldForAWhileOrAhead } from "@/lib/text/held-for-a-while";
import { framesWords, holdsAHomeOrJob, namesAnother, namesAPerson, takesBack } from "./framing";
import { type Fact, readStatement } from "./statements";

/**
 * The user's home or job in a chatty sentence read no other way, part by part (docs/memory-model.md, "How memory gets
 * written"): people open with a fragment ("job switch too, I'm a teacher now", "New role too — I'm now a teacher"),
 * add one after a comma ("I'm a nurse, been doing it about eight years"), or leave out the "I" of a change after a
 * lead-in ("news from me: moved to Porto last month and started a new role as a teacher"). A part between commas,
 * dashes and colons that opens with "I", or after the first with the past of a verb of change, is read as a sentence
 * of its own, and kept only when it says where the user lives or what they work as, now and for good. So is a clause
 * of the user's own inside a part, after "since", "because" or "as" (not "as soon as") or after "that" following
 * "now" or a noun of what is so ("the reason I'm writing is that I live in Porto", "Now that I'm based in Seville",
 * "Since we relocated to Madrid"). Reading stops at a part after words that make what follows someone else's words,
 * a supposition or a story ("my boss said: I'm the team lead", "if I got the job, …", "in the game, I'm a wizard"), a
 * joke or a time ("yeah right, …", "until June, …"), and before a part that takes it back ("— well, I was until …").
 * A part that opens with "I" is not read after a part naming a person ("my sister just texted me: I'm a doctor", "it's
 * my husband here, I'm a teacher"), but is after one naming only a thing of the user's ("my shifts change a lot, and
 * I live in Madrid"); a part without its own "I" is read after no part naming anyone. Quotes stay exact substrings of
 * the message.
 */
export function readParts(sentence: string, options: { greeted?: boolean }): Fact[] {
  // Split with its breaks kept: the parts at even places, each one's break before it at the odd place before it.
  const pieces = sentence.split(PART_BREAK);
  const facts: Fact[] = [];
  for (let index = 0; index < pieces.length; index += 2) {
    const before = pieces.slice(0, index).filter((_, at) => at % 2 === 0);
    if (before.some(framesWords)) break;
    const part = pieces[index]!.trim();
    // "I'm a nurse — well, I was until they laid me off": a part taken back by one after it is not held.
    const after = pieces.slice(index + 1).filter((_, at) => at % 2 === 1);
    if (after.some(takesBack)) break;
    const spoken = spokenPart(part, before);
    if (!spoken || FIGURATIVE.test(spoken) || statementHeldForAWhileOrAhead(`User ${spoken.replace(SPEAKER, "")}`))
      continue;
    const read = readStatement(spoken, options).filter((fact) => holdsAHomeOrJob(fact.content));
    facts.push(...read.map((fact) => ({ ...fact, quote: part.includes(spoken) ? fact.quote : withoutI(fact.quote) })));
  }
  return facts;
}

/**
 * What of a part the user says of themselves: the part when it opens with "I" and no part before names a person; its
 * clause after "since", "because", "as" or a "that" of what is so; or the part with "I" put back after a lead-in
 * ("news from me: moved to Porto"). Only the first after a part that names anyone: a part without its own subject
 * might be theirs.
 */
function spokenPart(part: string, before: string[]): string | undefined {
  const text = part.replace(CONJUNCTION, "");
  if (SPEAKER.test(text)) return before.some(namesAPerson) ? undefined : text;
  if (before.some(namesAnother)) return undefined;
  if (before.length > 0 && before.every((words) => LEAD_IN.test(words)) && dropsTheSpeaker(text)) return `I ${text}`;
  // "now" opens "now that", so the clause is looked for before the conjunctions are taken off.
  const inner = INNER_CLAUSE.exec(part);
  if (!inner) return undefined;
  const opening = part.slice(0, inner.index + inner[0].length);
  const lead = part.slice(0, inner.index);
  // "As soon as I move to Berlin", "so long as I'm a nurse": a time ahead or a condition, not a reason; "such as": an
  // example.
  if (AS_MUCH_AS.test(`${lead}${inner[1]}`)) return undefined;
  const held =
    inner[1]!.toLowerCase() !== "that" ||
    FACT_BEFORE_THAT.test(lead) ||
    (WHAT_IS_SO.test(lead) && IS_BEFORE_THAT.test(lead));
  if (!held) return undefined;
  const denied = framesWords(opening) || namesAnother(opening) || NEGATION.test(opening);
  if (denied) return undefined;
  // The clause ends where another subject opens one ("Since I moved to Berlin I've been happier").
  const clause = part.slice(inner.index + inner[0].length);
  const next = NEXT_SUBJECT.exec(clause);
  return next ? clause.slice(0, next.index) : clause;
}

// One blank on each side at most: a run of blanks before a dash made the pattern scan it again from each blank. "and"
// before an "I" of its own ends a part too ("The boxes are finally unpacked and I live in Ghent now").
const PART_BREAK = /(,\s|\s[—–-]\s|:\s|\sand\s(?=i(?:'m|'ve|’m|’ve)?\s))/i;
const SPEAKER = /^i(?:'m|'ve|’m|’ve)?\s/i;
/**
 * Words that open a clause the speaker holds true within a part, which must then open with "I" or "we": "since",
 * "because", "as", and "that" after "now", "given" or a noun of what is so ("the reason I'm writing is that", "the
 * thing is that"). Not "that" after any word: "the joke is that", "so that", "the plan is that" hold nothing true.
 */
const INNER_CLAUSE = /\b(since|because|as|that)\s(?=(?:i|we)(?:'m|'ve|'re|’m|’ve|’re)?\s)/i;
const FACT_BEFORE_THAT = /(?:^|\s)(?:now|given|seeing)\s$/i;
const WHAT_IS_SO = /\b(?:reason|thing|news|truth|fact|point|upshot|gist)\b/i;
const IS_BEFORE_THAT = /\sis\s$/i;
const AS_MUCH_AS = /(?:^|\s)(?:soon|long|far|much|well|such)\s+as$/i;
const NEXT_SUBJECT = /\s(?:i|we)(?:'m|'ve|'re|’m|’ve|’re)?\s/i;
/** A clause opened under a negation ("it's not that I live in Paris", "not since I moved") is not held true. */
const NEGATION = /\b(?:not|never|no)\b|n['’]t\b/i;
const CONJUNCTION = /^(?:(?:and|but|so|also|plus|oh|then|now)\b[\s,]*)+/i;
const withoutI = (quote: string) => (quote.startsWith("I ") ? quote.slice(2) : quote);

/** What opens news of one's own: "news from me", "quick update", "big news", "context". */
const LEAD_IN =
  /^(?:(?:ok|okay|so|and|quick|big|small|life|some|personal)\s)*(?:news|update|updates|context|fyi|background)(?:\s(?:from|on)\sme)?(?:\stoo)?[!.]*$/i;
/** Pasts of a lasting change a speaker reports without "I" ("moved to Porto", "started a new job as"). */
const CHANGES = new Set("moved relocated settled started joined switched became got landed accepted".split(" "));
const dropsTheSpeaker = (text: string) => CHANGES.has(text.split(/\s/)[0]?.toLowerCase() ?? "");

/**
 * A part said in a figure, a story or a hedge, or of a role not yet held: "I'm a pilot in my dreams", "I live in the
 * clouds", "a doctor on TV", "a taxi driver for my kids", "a nurse in the story", "a pilot, allegedly", "a nurse (in
 * training)", "a nurse according to my mom", "a nurse starting Monday".
 */
const FIGURATIVE =
  /\b(?:dreams?|clouds|tv|on screen|for my kids|games?|simulat\w*|sim|on paper|story|stories|show|series|scenario|fantasy|fanfic|novel|film|movie|roleplay|character|allegedly|supposedly|sort of|kind of|in training|according to|starting)\b/i;

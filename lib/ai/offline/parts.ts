import { slotOf } from "@/lib/text/slots";
import { standingValueOf } from "@/lib/text/standing-values";
import { type Fact, readStatement } from "./statements";

/**
 * The facts of a chatty sentence read no other way, part by part (docs/memory-model.md, "How memory gets written"):
 * people open with a fragment ("job switch too, I'm a teacher now", "New role too — I'm now a teacher"), add one
 * after a comma ("I'm a nurse, been doing it about eight years"), or leave out the "I" of a change they report
 * ("moved to Porto last month and started a new role as a teacher"). Each part between commas, dashes and colons
 * that opens with "I", or with the past of a verb of lasting change, is read as a sentence of its own; a part about
 * someone else ("my sister says hi"), one pointing at a place the part does not name ("lived here since college"),
 * and one without its "I" that holds no value of the user's ("got a cold") are not kept. Quotes stay exact
 * substrings of the message.
 */
export function readParts(sentence: string, options: { greeted?: boolean }): Fact[] {
  const parts = sentence.split(PART_BREAK).filter((part) => part.trim().length > 0);
  if (parts.length < 2 && !dropsTheSpeaker(sentence)) return [];
  return parts
    .flatMap((part) => {
      const text = part.trim().replace(CONJUNCTION, "");
      if (SPEAKER.test(text)) return readStatement(text, options);
      if (!dropsTheSpeaker(text)) return [];
      // Without its "I", a part is kept only for a value the user holds ("moved to Porto" → a home, "started a new
      // role as a teacher" → a job); "got a cold" or "quit the old one" is no fact worth keeping.
      const subject = /^been\b/i.test(text) ? "I've " : "I ";
      return readStatement(`${subject}${text}`, options)
        .filter((fact) => slotOf(fact.content) !== undefined || standingValueOf(fact.content) !== undefined)
        .map((fact) => ({
          ...fact,
          quote: fact.quote.startsWith(subject) ? fact.quote.slice(subject.length) : fact.quote,
        }));
    })
    .filter((fact) => !POINTING.test(fact.content));
}

const PART_BREAK = /,\s+|\s+[—–-]\s+|:\s+/;
const SPEAKER = /^i(?:'m|'ve|'d|’m|’ve|’d)?\s/i;
const CONJUNCTION = /^(?:(?:and|but|so|also|plus|oh|then)\b[\s,]*)+/i;
const POINTING = /\b(?:here|there)\b/i;
/** Pasts of a lasting change a speaker reports without "I" ("moved to Porto", "started a new job as"). */
const CHANGES = new Set(
  (
    "moved relocated settled started joined switched quit retired graduated married became adopted got signed landed " +
    "accepted been"
  ).split(" "),
);
const dropsTheSpeaker = (text: string) => CHANGES.has(text.trim().split(/\s+/)[0]?.toLowerCase() ?? "");

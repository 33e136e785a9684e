import { slotOf } from "@/lib/text/slots";
import { STANDING_SLOT_KEYS, standingValueOf } from "@/lib/text/standing-values";

/**
 * What makes words the user's own, now and for good, where the offline reader reads more of a sentence than a clause
 * that opens with "I" (./parts.ts, and a change after "and" in ./statements.ts): what the words hold, and what before
 * them frames them as someone else's.
 */

/** A fact of the user's home or job, read for now (lib/text/slots.ts); the kinds a part of a sentence is read for. */
export const holdsAHomeOrJob = (content: string) => {
  const slot = slotOf(content)?.key;
  return (
    slot === STANDING_SLOT_KEYS.home ||
    slot === STANDING_SLOT_KEYS.job ||
    (slot === undefined && standingValueOf(content) !== undefined && !/^User has been\b/.test(content))
  );
};

/**
 * Words after which what follows may not be the user's own statement: they report or judge words ("said", "goes",
 * "think"), suppose, tell a story or joke, or limit the time.
 */
export const framesWords = (part: string) => FRAMES.test(part);
const FRAMES =
  /\b(?:said|says|say|goes|told|tells|asked|asks|like|think|thinks|thought|assume|assumes|believe|if|when|unless|once|imagine|dreams?|pretend|roleplay|story|game|movie|character|quote|sure|right|as if|until|till|next|for now|by|ha|haha|lol|lmao|jk|guess)\b|["“”]/i;

/** Words that name someone: a possessive, a pronoun, a name (a capital past the first word, but for a place). */
export function namesAnother(part: string): boolean {
  const words = part.split(/\s+/);
  const named = (word: string, at: number) =>
    at > 0 && /^\p{Lu}/u.test(word) && !SELF.test(word) && !PLACE_BEFORE.test(words[at - 1]!);
  return PERSON.test(part) || words.some(named);
}
const SELF = /^I(?:['’](?:m|ve|d|ll))?$/;
const PLACE_BEFORE = /^(?:in|to|from|near|around|at|leaving|left|visiting|of)$/i;
const PERSON = /\b(?:my|his|her|their|our|your|he|she|they|him|them|we)\b/i;

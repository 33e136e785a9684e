import { slotOf } from "@/lib/text/slots";
import { STANDING_SLOT_KEYS, standingValueOf } from "@/lib/text/standing-values";
import { isPersonWord } from "@/lib/text/word-kinds";
import { isAdverb, isMostlyAdjective, lemmaOf, nouns } from "@/lib/text/wordnet";

/**
 * What makes the words of a part of a sentence the user's own, now and for good (./parts.ts): what they hold, and what
 * before them frames them as someone else's.
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
 * Whether words said after a statement, after a dash or a comma, open by taking it back or limiting it: "— actually
 * no, …", "— or I was, until …", "well, I was until they laid me off", "just kidding", "allegedly", "I think". Read
 * whole, the statement before them is not held as said. One with a subject of its own ("— I was a lawyer before", "—
 * it was diagnosed when I was a kid") is a statement of its own.
 */
export const takesBack = (piece: string) => TAKES_BACK.test(piece.trimStart());
const TAKES_BACK =
  /^(?:actually|no|not|or|until|till|except|unless|for now|well|or rather|rather|kidding|just kidding|jk|joking|allegedly|supposedly|sort of|kind of|maybe|probably|i think|i guess)\b/i;

/**
 * Words after which what follows may not be the user's own statement: they report or judge words ("said", "goes",
 * "think"), suppose, tell a story or joke, or limit the time.
 */
export const framesWords = (part: string) => FRAMES.test(part);
const FRAMES =
  /\b(?:said|says|say|goes|told|tells|asked|asks|like|think|thinks|thought|assume|assumes|believe|if|when|unless|once|imagine|dreams?|pretend\w*|roleplay|story|game|movie|character|quote|sure|right|as if|until|till|next|for now|by|ha|haha|lol|lmao|jk|guess|hypothetical\w*|suppos\w*|joke|joking|kidding|novel|book|film|show|series|script|fanfic|fiction|play|scene|role|fantasy|sim|scenario)\b|["“”]/i;

/**
 * Words that name someone: any possessive or pronoun ("my", "we"), or a person as namesAPerson reads one. A part without
 * its own subject after them might be theirs ("my parents retired, moved to Florida").
 */
export function namesAnother(part: string): boolean {
  return PERSON.test(part) || namesAPerson(part);
}

/** A capital past the first word, but "I" and a place after a word of place ("Leaving Lisbon", "in Porto"). */
const namesByName = (words: string[]) =>
  words.some((word, at) => at > 0 && /^\p{Lu}/u.test(word) && !SELF.test(word) && !PLACE_BEFORE.test(words[at - 1]!));

/**
 * Words that name a person other than the user: a pronoun, a name, or a person after a possessive ("my sister", "my
 * old college friend"); not a thing of the user's ("my shifts change a lot", "my question"). After such words a part
 * that opens with "I" may be theirs ("it's my husband here, I'm a teacher", "speaking as my dad, I'm a farmer").
 */
export function namesAPerson(part: string): boolean {
  const words = part.replace(/’/g, "'").split(/\s+/);
  // After a possessive, a person within a few words ("my old college roommate"), or a first word WordNet has no noun,
  // adjective or adverb for ("my bestie", "my bf").
  const owned = (word: string, at: number) => {
    if (!POSSESSIVE.test(word)) return false;
    const next = words.slice(at + 1, at + 7).map((one) => one.replace(/[^\p{L}'-]/gu, "").replace(/'s$/, ""));
    const first = next[0]?.toLowerCase() ?? "";
    const known = isKnownNoun(first) || isMostlyAdjective(first) || isAdverb(first);
    return next.some((one) => one !== "" && isPersonWord(one)) || (first !== "" && !known);
  };
  // "Tom's point", "the doctor's point": someone's, by a name or a person.
  const whose = (word: string) =>
    /'s$/.test(word) && !NOT_WHOSE.test(word) && (/^\p{Lu}/u.test(word) || isPersonWord(word));
  return PRONOUN.test(part) || namesByName(words) || words.some(owned) || words.some(whose);
}
const isKnownNoun = (word: string) => lemmaOf(word, nouns().index) !== undefined;
/** "It's", "that's", "here's": a word and "is", not someone's. */
const NOT_WHOSE = /^(?:it|that|there|here|what|where|who|how|let|this|one|everyone|everything|nothing|life|work)'s$/i;
const PRONOUN = /\b(?:he|she|they|him|her|them|his|we|your)\b/i;
const POSSESSIVE = /^(?:my|our|his|her|their|your)$/i;
const SELF = /^I(?:['’](?:m|ve|d|ll))?$/;
const PLACE_BEFORE = /^(?:in|to|from|near|around|at|leaving|left|visiting|of)$/i;
const PERSON = /\b(?:my|his|her|their|our|your|he|she|they|him|them|we)\b/i;

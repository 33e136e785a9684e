import { capitalize, innerPronouns, instructionPronouns, stripTrailing } from "./third-person";

/**
 * What a "them" in a clause stands for, read from the clause before it ("I'm allergic to peanuts, so never suggest
 * recipes with them"): the offline reader's facts name the thing, since out of the conversation nobody could tell.
 */

/** "so never suggest recipes with them" → "Never suggest recipes with peanuts", or null when "them" is unclear. */
export function asInstruction(text: string, previous: string | null): string | null {
  let instruction = instructionPronouns(stripTrailing(text).replace(/^please\s+/i, ""));
  if (/\bthem\b/i.test(instruction)) {
    const antecedent = previous ? lastPluralNoun(previous) : null;
    if (!antecedent) return null;
    instruction = instruction.replace(/\bthem\b/gi, instructionPronouns(antecedent));
  }
  return capitalize(instruction);
}

export function resolveThem(fact: string, previous: string): string {
  const antecedent = lastPluralNoun(previous);
  return antecedent ? fact.replace(/\bthem\b/gi, innerPronouns(antecedent)) : fact;
}

/** Words whose object a following "them" may refer to: "allergic to peanuts", "I love dogs". */
const PLURAL_OBJECT_OF = new Set(
  "to of with about for on from like love hate dislike eat avoid enjoy prefer own have keep".split(" "),
);

/** The plural noun a clause ends on, which a following "them" refers to: "I'm allergic to peanuts" → "peanuts". */
function lastPluralNoun(clause: string): string | null {
  const text = stripTrailing(clause);
  const words = [...text.matchAll(/\S+/g)];
  // The noun phrase is the last one to three words after one of PLURAL_OBJECT_OF; the longest that qualifies.
  for (let length = Math.min(3, words.length - 1); length >= 1; length--) {
    const lead = words[words.length - length - 1]![0].toLowerCase();
    const phrase = words.slice(-length);
    // The opener may close a longer token only after a character that ends a word: "(to", not "onto".
    const opens = [...PLURAL_OBJECT_OF].some(
      (word) => lead.endsWith(word) && !/\w/.test(lead.charAt(lead.length - word.length - 1)),
    );
    if (!opens) continue;
    if (!phrase.every((word) => /^[\p{L}'’-]+$/u.test(word[0])) || !/^[\p{L}'’-]+s$/iu.test(phrase.at(-1)![0]))
      continue;
    const found = text.slice(phrase[0]!.index);
    return /^(?:them|these|those|this|that|it|us|yours|his|hers|ours|theirs)$/i.test(found) ? null : found;
  }
  return null;
}

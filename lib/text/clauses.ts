import { ADVERBS_BESIDE_A_VERB } from "@/lib/text/function-words";
import { isVerbForm } from "@/lib/text/word-kinds";

/** Where a clause ends (as lib/text/trim.ts firstClause reads it): a ";", a dash between spaces, a sentence's end. */
const CLAUSE_ENDS = /;|\s[–—-]\s|[.!?](?=\s|$)/g;

/**
 * A statement's clauses: it is cut at a ";", a dash or a sentence end, at brackets ("Hobby: sailing (twice a week)"
 * gives "Hobby: sailing" and "twice a week"), and before a second predicate of the same subject ("… and finds it
 * restorative", "… and wants help packing light", "… and experimenting with flours"). What a clause says is read apart
 * from the asides around it. One pass over the text: a memory may be tens of thousands of characters.
 */
export function clausesOf(text: string): string[] {
  const clauses: string[] = [];
  for (const sentence of text.split(CLAUSE_ENDS)) {
    for (const part of bracketParts(sentence)) clauses.push(...bySecondPredicate(part));
  }
  return clauses.filter((clause) => clause.length > 0);
}

/** The first of the clauses: what a statement says before its asides. */
export const mainClause = (text: string): string => clausesOf(text)[0] ?? "";

/** The text outside brackets, and each bracket's inside, in order; an unclosed bracket runs to the end. */
function bracketParts(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (const character of text) {
    if (character === "(" || character === ")") {
      parts.push(current.trim());
      current = "";
    } else current += character;
  }
  parts.push(current.trim());
  return parts;
}

function bySecondPredicate(clause: string): string[] {
  const parts: string[][] = [[]];
  const words = clause.split(/\s+/).filter(Boolean);
  for (const [at, word] of words.entries()) {
    // "… and (still) loves it": an adverb may stand before the second verb.
    const next = words.slice(at + 1, at + 3).find((after) => !ADVERBS_BESIDE_A_VERB.has(after.toLowerCase())) ?? "";
    // "… and dogs", "films and plays": a plural noun ending the clause is no second predicate.
    const last = words.indexOf(next, at + 1) === words.length - 1;
    if (at > 0 && /^and$/i.test(word) && /(?:s|ing)$/.test(next) && isVerbForm(next) && !last) parts.push([]);
    else parts.at(-1)!.push(word);
  }
  return parts.map((part) => part.join(" ").replace(/,$/, "")).filter((part) => part.length > 0);
}

import { readFileSync } from "node:fs";
import wordListPath from "word-list";
import { processState } from "@/lib/process-state";

/**
 * English words (SCOWL, via the `word-list` package: about 274,000 words with their inflections), read once per
 * process on first use. A query word in this list is never treated as a typo, whatever the user's own vocabulary
 * holds: "according" is not a misspelling of "rewarding".
 */
function englishWords(): ReadonlySet<string> {
  return processState<ReadonlySet<string>>(
    "english-words",
    () => new Set(readFileSync(wordListPath, "utf8").split("\n")),
  );
}

/**
 * The word list holds no apostrophes, so a contraction or possessive counts as English when the list has it written
 * without them ("can't" as "cant", "won't" as "wont") or its stem before the ending ("doesn't", "we're", "user's").
 */
const CLITIC = /(?:n't|'s|'re|'ve|'ll|'d|'m)$/;

export function isEnglishWord(word: string): boolean {
  const words = englishWords();
  const lower = word.toLowerCase();
  if (words.has(lower)) return true;
  if (!lower.includes("'")) return false;
  const stem = lower.replace(CLITIC, "");
  return words.has(lower.replaceAll("'", "")) || (stem !== lower && words.has(stem));
}

/** Letters-only words of a query, lower-cased, that could be misspellings: not English and of a plausible length. */
export function possibleTypos(query: string): string[] {
  const words =
    query
      .normalize("NFKC")
      .toLowerCase()
      .match(/\p{L}+(?:'\p{L}+)*/gu) ?? [];
  return [...new Set(words)].filter((word) => word.length >= 3 && word.length <= 40 && !isEnglishWord(word));
}

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

export function isEnglishWord(word: string): boolean {
  return englishWords().has(word.toLowerCase());
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

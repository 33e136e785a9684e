import { readFileSync } from "node:fs";
import irregularNouns from "wink-lexicon/src/irregular-nouns.js";
import irregularVerbs from "wink-lexicon/src/irregular-verbs.js";
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

/**
 * Reads the word list and the irregular forms now rather than inside the first search that asks: a server does it
 * when it starts (`warmSearch`), since the list alone took 0.4 s of its event loop on first use.
 */
export function readEnglishTables(): void {
  englishWords();
  irregularGroups();
}

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
  return queryWords(query).filter((word) => word.length >= 3 && word.length <= 40 && !isEnglishWord(word));
}

/**
 * For each word of a query that is a form of an irregular verb or noun (wink-lexicon's tables), its other forms:
 * "What did she see?" → see/saw and see/seen. A stemmer cannot join them (it makes "saw" of "saw" and "see" of
 * "see"), and questions ask in the present what a conversation told in the past ("bought", "went", "chose").
 */
export function irregularFormsIn(query: string): Array<{ word: string; form: string }> {
  const groups = irregularGroups();
  return queryWords(query).flatMap((word) =>
    [...(groups.get(word) ?? [])].filter((form) => form !== word).map((form) => ({ word, form })),
  );
}

/**
 * Every form of an irregular verb or noun to the forms of each word it is a form of, itself included: "see" to see,
 * saw, seen; "saw" to those and to saw, sawed, sawn (the tool's verb); not "see" to "sawn".
 */
function irregularGroups(): ReadonlyMap<string, ReadonlySet<string>> {
  return processState("irregular-forms", () => {
    const formsOf = new Map<string, Set<string>>();
    const add = (form: string, base: string) => {
      const forms = formsOf.get(base) ?? new Set([base]);
      forms.add(form);
      formsOf.set(base, forms);
    };
    for (const [form, base] of Object.entries(irregularVerbs)) add(form, base);
    for (const [plural, singular] of Object.entries(irregularNouns.singular)) add(plural, singular);
    const groups = new Map<string, Set<string>>();
    for (const forms of formsOf.values()) {
      for (const word of forms) {
        const group = groups.get(word) ?? new Set<string>();
        for (const form of forms) group.add(form);
        groups.set(word, group);
      }
    }
    return groups;
  });
}

/** A query's distinct words, lower-cased: letters, with inner apostrophes ("don't", "user's"). */
export function queryWords(query: string): string[] {
  return [
    ...new Set(
      query
        .normalize("NFKC")
        .toLowerCase()
        .match(/\p{L}+(?:'\p{L}+)*/gu) ?? [],
    ),
  ];
}

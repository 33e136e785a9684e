import { processState } from "@/lib/process-state";
import { isVerb, lemmaOf, nouns } from "@/lib/text/wordnet";
import { queryWords } from "./english";

/**
 * How far below a query noun its narrower nouns are taken, and how many at most: "instrument" reaches "violin" in
 * three links and "saxophone" in five, "vehicle" reaches "minivan" in five.
 */
const DEPTH = 5;
const LIMIT = 1_000;
/** Related words per query, all nouns together: a pasted page must not send the database a dictionary to stem. */
export const MAX_RELATED_WORDS = 3_000;
/**
 * WordNet's lexicographer files of abstract senses: attribute, cognition, communication, feeling, motive, quantity,
 * relation, state. The nouns below such a sense are abstract words with everyday senses of their own ("content" as a
 * message has "theme" below it, which a memory says of an editor's colours), so a query noun's abstract sense is
 * walked only when it is the noun's most frequent one ("speech", "music"); concrete senses (an artifact, an animal,
 * a food, an act) are walked whatever their rank ("instrument" as a musical instrument is its sixth).
 */
const ABSTRACT_FILES: ReadonlySet<number> = new Set([7, 9, 10, 12, 16, 23, 24, 26]);
/** Query words whose related words a process keeps (a word asked again is not walked again); then it starts over. */
const REMEMBERED_WORDS = 10_000;

/**
 * Reads every noun synset now (a fifth of a second), not on the searches that first reach it, and returns every word a
 * noun can stand for (about 55,000): a server warms its search with them when it starts (`warmSearch`).
 */
export function everyRelatedWord(): string[] {
  const { offsets, synsetAt } = nouns();
  const words = new Set<string>();
  for (const offset of offsets()) for (const word of synsetAt(offset).words) words.add(word);
  return [...words];
}

export interface RelatedWord {
  word: string;
  /** 0 for a synonym (a lemma of one of its synsets), n for a word n hyponym links below one of them. */
  depth: number;
}

/**
 * The words a noun can stand for in a question: its synonyms ("mount" for "mountain") and the nouns below it, up to
 * DEPTH links and LIMIT words, nearest first ("cello" and "violin" for "instrument", "marathon" for "race"). A
 * question asks in the general word what a conversation said in the particular one. Kept per process: chat recall and
 * the search tool ask about the same words.
 */
export function narrowerWords(word: string): readonly RelatedWord[] {
  const remembered = processState("wordnet-narrower", () => new Map<string, readonly RelatedWord[]>());
  let related = remembered.get(word);
  if (!related) {
    if (remembered.size >= REMEMBERED_WORDS) remembered.clear();
    related = walkNarrower(word);
    remembered.set(word, related);
  }
  return related;
}

function walkNarrower(word: string): RelatedWord[] {
  const { index, synsetAt } = nouns();
  const lemma = lemmaOf(word, index);
  if (!lemma) return [];
  const found = new Map<string, number>([[lemma, 0]]);
  // Senses are listed most frequent first.
  let level = (index.get(lemma) ?? []).filter(
    (offset, rank) => rank === 0 || !ABSTRACT_FILES.has(synsetAt(offset).file),
  );
  const visited = new Set(level);
  for (let distance = 0; distance <= DEPTH && level.length > 0; distance++) {
    const next: number[] = [];
    for (const offset of level) {
      const synset = synsetAt(offset);
      for (const related of synset.words) {
        if (isGerund(related)) continue;
        if (!found.has(related)) found.set(related, distance);
        if (found.size > LIMIT) return withoutLemma(found, lemma);
      }
      for (const below of synset.narrower) {
        if (!visited.has(below)) {
          visited.add(below);
          next.push(below);
        }
      }
    }
    level = next;
  }
  return withoutLemma(found, lemma);
}

/**
 * "speaking" under "speech", "learning" under "education": the stemmer makes the verb of a gerund, so it would match
 * every use of the verb ("learning to speak" for "the speech"), which says nothing about the noun.
 */
function isGerund(word: string): boolean {
  if (!word.endsWith("ing")) return false;
  const base = word.slice(0, -3);
  return isVerb(base) || isVerb(`${base}e`) || (/(.)\1$/.test(base) && isVerb(base.slice(0, -1)));
}

const withoutLemma = (found: ReadonlyMap<string, number>, lemma: string): RelatedWord[] =>
  [...found].filter(([word]) => word !== lemma).map(([word, depth]) => ({ word, depth }));

/**
 * For each word of a query that is a WordNet noun, the words it can stand for (`narrowerWords`), nearest first: single
 * lower-case words of letters a to z.
 */
export function relatedWordsIn(query: string): Array<{ word: string; words: readonly string[] }> {
  let budget = MAX_RELATED_WORDS;
  return queryWords(query).flatMap((word) => {
    if (budget <= 0) return [];
    const related = narrowerWords(word).slice(0, budget);
    budget -= related.length;
    return related.length > 0 ? [{ word, words: related.map((entry) => entry.word) }] : [];
  });
}

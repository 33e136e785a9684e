import { expect, it } from "vitest";
import { everyRelatedWord, MAX_RELATED_WORDS, narrowerWords, relatedWordsIn } from "@/lib/memory/search/wordnet";

const depthOf = (word: string, related: string) => narrowerWords(word).find((entry) => entry.word === related)?.depth;

it("gives a noun's synonyms and the nouns below it in WordNet, nearest first, from its plural too", () => {
  expect(depthOf("mountain", "mount")).toBe(0);
  expect(depthOf("instruments", "cello")).toBe(3);
  expect(depthOf("instrument", "saxophone")).toBe(5);
  expect(depthOf("vegetables", "zucchini")).toBe(3);
  const depths = narrowerWords("vehicle").map((entry) => entry.depth);
  expect(depths).toEqual([...depths].sort((a, b) => a - b));
  // Not upwards: a cello does not stand for every instrument, nor a word for itself.
  expect(narrowerWords("cello").map((entry) => entry.word)).not.toContain("instrument");
  expect(narrowerWords("cello").map((entry) => entry.word)).not.toContain("cello");
});

it("leaves out gerunds, which the stemmer would turn into their verb, and words WordNet has no noun for", () => {
  expect(narrowerWords("speech").map((entry) => entry.word)).not.toContain("speaking");
  expect(narrowerWords("speech").map((entry) => entry.word)).toContain("talk");
  expect(narrowerWords("xqzv")).toEqual([]);
  expect(relatedWordsIn("Which instrument did Maya play?").map((entry) => entry.word)).toEqual(
    expect.arrayContaining(["instrument"]),
  );
  expect(relatedWordsIn("Which instrument did Maya play?").map((entry) => entry.word)).not.toContain("which");
});

it("bounds the related words of a long query, the first nouns first", () => {
  const pasted = "instrument vehicle food animal person city tool plant ".repeat(40);
  const related = relatedWordsIn(pasted);
  const total = related.reduce((sum, entry) => sum + entry.words.length, 0);
  expect(total).toBeLessThanOrEqual(MAX_RELATED_WORDS);
  expect(related[0]?.word).toBe("instrument");
});

it("names, for warming, every word a noun can stand for: the first synset's and every walk's", () => {
  const every = new Set(everyRelatedWord());
  // "entity" is data.noun's first synset, right after the licence.
  for (const word of ["entity", "mount", "cello", "minivan", "zucchini"]) expect(every).toContain(word);
  for (const noun of ["instrument", "person", "vehicle", "race"]) {
    expect(narrowerWords(noun).filter((entry) => !every.has(entry.word))).toEqual([]);
  }
  expect(every.size).toBeGreaterThan(50_000);
});

it("walks a query noun's abstract senses only when they are its most frequent one", () => {
  const related = (query: string) => relatedWordsIn(query).flatMap((entry) => entry.words);
  // "content" as a message has "theme" below it: not what a question means by "content".
  expect(related("content kind")).not.toContain("theme");
  expect(related("content kind")).not.toContain("topic");
  // A concrete sense is walked whatever its rank ("instrument" as a musical instrument is its sixth).
  expect(related("which instrument")).toContain("cello");
  // An abstract sense that is the noun's most frequent one still is ("speech" as an address).
  expect(related("the speech")).toContain("talk");
});

import { MockEmbeddingModelV4 } from "ai/test";
import { beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { confidenceOf, searchMemories } from "@/lib/memory/search";
import { vectorStanding } from "@/lib/memory/search/confidence";
import { createMemories } from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser, withEmbedding } from "./support";

const FLOOR = LIMITS.confidenceFloor;
const confident = (results: Array<{ confidence: number; memory: { text: string } }>) =>
  results.filter((result) => result.confidence >= FLOOR).map((result) => result.memory.text);

describe("confidence signals", () => {
  it("reads a similarity's standing as standard deviations above the query's mean similarity", () => {
    expect(vectorStanding(0.7, { mean: 0.3, spread: 0.1 })).toBeCloseTo(4);
    expect(vectorStanding(0.2, { mean: 0.3, spread: 0.1 })).toBeCloseTo(-1);
    expect(vectorStanding(0.5, { mean: 0.5, spread: 0 })).toBe(0);
  });

  it("grows with the query's words a memory holds, exactly more than through an expansion, and with standing", () => {
    const lexical = (coverage: number, exact: number) =>
      confidenceOf({ lexical: 0, coverage, exact, memories: 500 }, "lexical");
    expect(lexical(1, 1)).toBeGreaterThanOrEqual(FLOOR);
    expect(lexical(0, 0)).toBeLessThan(FLOOR);
    expect(lexical(0.6, 0.6)).toBeGreaterThan(lexical(0.3, 0.3));
    // The same share held through a related word or a typo's correction is less sure than in the query's own words.
    expect(lexical(0.6, 0)).toBeLessThan(lexical(0.6, 0.6));
    const hybrid = (standing: number) =>
      confidenceOf({ lexical: 0, coverage: 0, exact: 0, memories: 500, cosine: 0.4, standing }, "hybrid");
    expect(hybrid(8)).toBeGreaterThan(hybrid(2));
    expect(hybrid(2)).toBeLessThan(FLOOR);
    for (const value of [lexical(1, 1), lexical(0, 0), hybrid(40), hybrid(-3)]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
  });
});

/**
 * A toy encoder: a strong dimension for pets (so "feline" lands near "kitten" without a shared word) and sixteen
 * dimensions that count the text's words by a hash, so texts about nothing in common are near each other by chance
 * only, as with a real encoder.
 */
function toyEncoder() {
  const embed = (text: string) => {
    const vector = new Array<number>(17).fill(0);
    if (/cat|kitten|feline|pet/i.test(text)) vector[0] = 4;
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      let hash = 7;
      for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
      vector[1 + (hash % 16)]! += 1;
    }
    return vector;
  };
  return new MockEmbeddingModelV4({
    provider: "toy",
    modelId: "pets-and-words",
    maxEmbeddingsPerCall: 64,
    doEmbed: async ({ values }) => ({ embeddings: values.map(embed), warnings: [] }),
  });
}

const ERRANDS = ["bread", "stamps", "batteries", "lightbulbs", "soap", "rice", "envelopes", "glue", "string", "nails"];
const PLACES = ["bakery", "post office", "hardware store", "market", "pharmacy", "library", "bank", "garage"];
/** Sixty notes about errands: a user's everyday chatter, which no question below is about. */
const errands = Array.from(
  { length: 60 },
  (_, index) =>
    `Errand ${index + 1}: get ${ERRANDS[index % ERRANDS.length]} at the ${PLACES[(index * 3) % PLACES.length]} ` +
    `before ${["noon", "five", "the weekend", "Monday"][index % 4]}`,
);

describeEachDatabase("search confidence", (use, backend) => {
  let lexical: MemoryContext;
  let hybrid: MemoryContext;
  beforeAll(async () => {
    const memories = [
      "I switched my editor to the solarized dark theme",
      "I drink green tea every morning",
      "My kitten Miso sleeps on the sofa all afternoon",
      ...errands,
    ].map((content) => ({ content }));
    lexical = contextFor(use(), await createUser(use()));
    await createMemories(lexical, memories);
    hybrid = withEmbedding(contextFor(use(), await createUser(use())), toyEncoder());
    await createMemories(hybrid, memories);
  });

  it("matches no unrelated word through WordNet: 'content kind' does not find the editor's theme", async () => {
    const results = await searchMemories(lexical, { query: "content kind", mode: "lexical" });
    expect(results.map((result) => result.memory.text)).not.toContain(
      "I switched my editor to the solarized dark theme",
    );
    expect(confident(results)).toEqual([]);
  });

  it("gives a memory that answers the question a confident hit, and a question nothing answers none", async () => {
    const tea = await searchMemories(lexical, { query: "Which tea do I drink?", mode: "lexical" });
    expect(confident(tea)).toEqual(["I drink green tea every morning"]);
    for (const query of ["What is my blood type?", "xqzv blorf wemp", "Where did I get the tattoo before noon?"]) {
      expect(confident(await searchMemories(lexical, { query, mode: "lexical" }))).toEqual([]);
    }
  });

  // The vector leg needs pgvector, which PGlite has and the PostgreSQL the tests run on has not.
  it.runIf(backend === "pglite")(
    "in hybrid, gives a paraphrase with no word in common a confident hit, and gibberish none",
    async () => {
      const paraphrase = await searchMemories(hybrid, { query: "Which feline lives with me?", mode: "hybrid" });
      expect(paraphrase[0]?.memory.text).toBe("My kitten Miso sleeps on the sofa all afternoon");
      expect(confident(paraphrase)).toEqual(["My kitten Miso sleeps on the sofa all afternoon"]);
      for (const query of ["xqzv blorf wemp", "What is my blood type?"]) {
        const results = await searchMemories(hybrid, { query, mode: "hybrid" });
        expect(results.length).toBeGreaterThan(0);
        expect(confident(results)).toEqual([]);
      }
    },
  );

  it("keeps ranking every hit, and minConfidence keeps only those at least that confident", async () => {
    const all = await searchMemories(lexical, { query: "green tea before noon", mode: "lexical" });
    expect(all.length).toBeGreaterThan(1);
    const floored = await searchMemories(lexical, {
      query: "green tea before noon",
      mode: "lexical",
      minConfidence: FLOOR,
    });
    expect(floored.length).toBeGreaterThan(0);
    expect(floored.length).toBeLessThan(all.length);
    expect(floored.every((result) => result.confidence >= FLOOR)).toBe(true);
    expect(floored.map((result) => result.memory.id)).toEqual(
      all.filter((result) => result.confidence >= FLOOR).map((result) => result.memory.id),
    );
    await expect(searchMemories(lexical, { query: "tea", minConfidence: 2 })).rejects.toThrow();
  });
});

import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { asUser } from "@/lib/db/unit-of-work";
import { findCandidates } from "@/lib/memory/consolidation";
import { DUPLICATE_SIMILARITY } from "@/lib/memory/consolidation/near-identical";
import { createMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

/**
 * The near-identical leg tests a bound from each memory's trigram count and signature before it calls pg_trgm's
 * `similarity` (lib/memory/consolidation/near-identical.ts). The bound must never drop a pair `similarity`
 * keeps. These memories all end alike, and their similarities lie on both sides of DUPLICATE_SIMILARITY: texts that
 * open differently around one activity, and texts each the one before with a word more, where the bound is as tight
 * as it gets (no trigram of the shorter is missing from the longer: similarity is the ratio of their counts). One such
 * pair is at the threshold itself (28 trigrams of 40), and two texts are far from every other: one of trigrams
 * pg_trgm shows as hashes (letters outside ASCII), one with none at all. Two more pairs are each a block of two of
 * their own, one by its ending and one by its opening.
 */
const OPENINGS = ["Every spring", "Most years", "Each April", "Usually", "Some weekends", "Twice a year", "Often"];
const MIDDLES = [
  "repaints the old wooden rowing boat",
  "repaints the old wooden boat",
  "carefully repaints the old wooden rowing boat",
  "repaints the wooden rowing boat",
  "sands and repaints the old wooden rowing boat",
];
const WORDS = "restores vintage sailing dinghies with cedar planks bronze fittings linseed varnish".split(" ");
const TEXTS = [
  ...OPENINGS.flatMap((opening, at) => [
    `${opening} the user ${MIDDLES[at % MIDDLES.length]} by the harbour`,
    `${opening} they ${MIDDLES[(at + 2) % MIDDLES.length]} by the harbour`,
  ]),
  ...WORDS.map((_, at) => `User ${WORDS.slice(0, at + 1).join(" ")} by the harbour`),
  "Grüße aus Köln, schöne Straße by the harbour",
  "!!!",
];
const AT_THE_THRESHOLD = ["User paddles by the harbour", "User paddles often alone by the harbour"];
const BLOCKS_OF_TWO = [
  "User keeps bees on the allotment roof",
  "Every year user keeps bees on the allotment roof",
  "User grows tomatoes in the greenhouse",
  "User grows tomatoes in the greenhouse every summer",
];

describeEachDatabase("the finder's near-identical pairs", (use) => {
  it("are exactly the pairs of one ending or one opening whose trigram similarity reaches the threshold", async () => {
    const database = use();
    const ctx = contextFor(database, await createUser(database));
    const ids = new Map<string, string>();
    for (const text of [...TEXTS, ...AT_THE_THRESHOLD, ...BLOCKS_OF_TWO]) {
      ids.set(text, (await createMemory(ctx, { content: text })).id);
    }

    // Compared in SQL as the finder compares: `similarity` is a real, and 0.7 as a real is not 0.7 as a double.
    const every = await asUser(ctx, (unit) =>
      unit.rows<{ a: string; b: string; same: boolean }>(sql`
        select a.id as a, b.id as b, similarity(a.text, b.text) >= ${DUPLICATE_SIMILARITY} as same
        from memories a join memories b on b.user_id = a.user_id and a.id < b.id
        where a.user_id = ${unit.userId}`),
    );
    const expected = every.filter((pair) => pair.same).map((pair) => `${pair.a} ${pair.b}`);
    const pairOf = (a: string, b: string) => [ids.get(a)!, ids.get(b)!].sort().join(" ");
    // A bound any stricter than the threshold leaves the first out.
    for (const [a, b] of [AT_THE_THRESHOLD, BLOCKS_OF_TWO.slice(0, 2), BLOCKS_OF_TWO.slice(2)]) {
      expect(expected).toContain(pairOf(a!, b!));
    }

    const { pairs } = await findCandidates(ctx, new Date());
    const found = pairs.filter((pair) => pair.relation === "duplicate").map((pair) => `${pair.a} ${pair.b}`);
    expect(found.sort()).toEqual(expected.sort());
  });
});

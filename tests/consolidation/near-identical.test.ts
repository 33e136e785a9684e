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
 * as it gets (no trigram of the shorter is missing from the longer: similarity is the ratio of their counts).
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
];

describeEachDatabase("the finder's near-identical pairs", (use) => {
  it("are exactly the pairs ending alike whose trigram similarity reaches the threshold", async () => {
    const database = use();
    const ctx = contextFor(database, await createUser(database));
    for (const text of TEXTS) await createMemory(ctx, { content: text });

    const similarities = await asUser(ctx, (unit) =>
      unit.rows<{ a: string; b: string; similarity: number }>(sql`
        select a.id as a, b.id as b, similarity(a.text, b.text) as similarity
        from memories a join memories b on b.user_id = a.user_id and a.id < b.id
        where a.user_id = ${unit.userId}`),
    );
    const expected = similarities
      .filter((pair) => Number(pair.similarity) >= DUPLICATE_SIMILARITY)
      .map((pair) => `${pair.a} ${pair.b}`);
    // Pairs just either side of the threshold, so that a bound a little too strict or too loose shows.
    const near = (low: number, high: number) =>
      similarities.filter((pair) => Number(pair.similarity) >= low && Number(pair.similarity) < high).length;
    expect(near(DUPLICATE_SIMILARITY, DUPLICATE_SIMILARITY + 0.02)).toBeGreaterThan(0);
    expect(near(DUPLICATE_SIMILARITY - 0.02, DUPLICATE_SIMILARITY)).toBeGreaterThan(0);

    const { pairs } = await findCandidates(ctx, new Date());
    const found = pairs.filter((pair) => pair.relation === "duplicate").map((pair) => `${pair.a} ${pair.b}`);
    expect(found.sort()).toEqual(expected.sort());
  });
});

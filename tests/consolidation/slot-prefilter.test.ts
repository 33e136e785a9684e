import { expect, it } from "vitest";
import { findCandidates } from "@/lib/memory/consolidation";
import { createMemory } from "@/lib/memory/store";
import { slotOf } from "@/lib/text/slots";
import { standingValueOf } from "@/lib/text/standing-values";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

/**
 * The finder picks in SQL the memories whose slot TypeScript reads (lib/memory/consolidation/candidates.ts): the
 * pattern must take every text the TypeScript reader takes, or the finder never pairs that text with another value of
 * its slot. Each phrasing here is paired with a memory of the same slot that shares neither its opening words nor its
 * last ones, so only the slot leg can pair them.
 */
const HOMES = [
  "User settled in the Netherlands",
  "The user has settled in the United Kingdom.",
  "User settled in New York City",
  "User settled in Rio de Janeiro",
  "User settled in Évora",
  "User has been living in Toronto, Canada",
  // Read by kind, with no "in" or "to" before the place, or none the old pattern took.
  "User calls Lisbon home",
  "User has made Ghent their home",
  "User moved house to Porto",
  "User is a resident of Porto",
  "User's new home is in Porto",
];

const JOBS = [
  "User has become a nurse",
  "User has now become a nurse",
  "User is now officially a nurse",
  "User is now working as a nurse",
  "User now works as an engineer",
  "The user currently works as a software engineer at a bank.",
  "User is employed as a nurse",
  "User became a dentist after college",
  "User is a chef by trade",
  "User started a new job as a teacher",
  "User got a job as a pilot",
  "User earns a living as a nurse",
  "User retrained as a teacher",
  "User's job title is editor",
  "User is a chef now",
];

describeEachDatabase("the finder's slot prefilter", (use) => {
  async function pairsOf(texts: string[]) {
    const database = use();
    const userId = await createUser(database);
    const ctx = contextFor(database, userId, { actor: { type: "extractor", id: "offline" } });
    const ids = [];
    for (const content of texts) ids.push((await createMemory(ctx, { content })).id);
    const { pairs } = await findCandidates(ctx, new Date("2026-06-01T00:00:00.000Z"));
    return { ids, pairs };
  }

  it.each(HOMES)("pairs %j with another home, as TypeScript reads it", async (text) => {
    expect(slotOf(text)?.key).toBe("residence");
    const { ids, pairs } = await pairsOf(["User's home is in Reykjavik", text]);
    expect(pairs).toEqual([{ a: expect.any(String), b: expect.any(String), relation: "slot" }]);
    expect(new Set([pairs[0]!.a, pairs[0]!.b])).toEqual(new Set(ids));
  });

  it.each(JOBS)("pairs %j with another job, as TypeScript reads it", async (text) => {
    expect(slotOf(text)?.key).toBe("job");
    const { ids, pairs } = await pairsOf(["User's occupation is locksmith", text]);
    expect(pairs).toEqual([{ a: expect.any(String), b: expect.any(String), relation: "slot" }]);
    expect(new Set([pairs[0]!.a, pairs[0]!.b])).toEqual(new Set(ids));
  });

  // A home or a job read by its kind (lib/text/standing-values.ts), in wordings neither the table nor the readers by
  // grammar take: the slot leg pairs them, so the health card counts the conflict the offline model resolves.
  it.each([
    ["User has been renting a small place in Lisbon for about three years", "User signed the lease on a flat in Porto"],
    ["User's day job is being a nurse", "User handed in their notice and is starting as a teacher"],
  ])("pairs %j with %j as one slot, each read by its kind", async (a, b) => {
    expect(standingValueOf(a)?.kind).toBe(standingValueOf(b)?.kind);
    const { ids, pairs } = await pairsOf([a, b]);
    expect(pairs).toEqual([{ a: expect.any(String), b: expect.any(String), relation: "slot" }]);
    expect(new Set([pairs[0]!.a, pairs[0]!.b])).toEqual(new Set(ids));
  });

  it("pairs two wordings of one multi-word home as the same value, not a conflict", async () => {
    const { pairs } = await pairsOf(["User moved to New York City last year", "User settled in New York City"]);
    expect(pairs.map((pair) => pair.relation)).toEqual(["duplicate"]);
  });
});

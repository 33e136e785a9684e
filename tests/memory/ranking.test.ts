import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import type { MemoryContext } from "@/lib/memory/core";
import { searchMemories } from "@/lib/memory/search";
import {
  createMemories,
  createMemory,
  deleteMemory,
  purgeMemory,
  restoreMemory,
  updateMemory,
} from "@/lib/memory/store";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser, dumpAllRows } from "./support";

const texts = (results: { memory: { text: string } }[]) => results.map((result) => result.memory.text);

describeEachDatabase("lexical ranking from the user's own corpus", (use) => {
  let ctx: MemoryContext;
  beforeAll(async () => {
    ctx = contextFor(use(), await createUser(use()));
    // Caroline's name is in every memory; "telescope" in one.
    await createMemories(ctx, [
      ...Array.from({ length: 30 }, (_, index) => ({ content: `Caroline talked about her week, part ${index}` })),
      { content: "Caroline bought a telescope for the garden" },
      { content: "Caroline and Mel went hiking according to plan" },
      { content: "Caroline gave a speech at the library" },
    ]);
  });

  const statsOf = async (userId: string) => ({
    lexemes: Object.fromEntries(
      (
        await use().unbound.rows<{ lexeme: string; docs: number }>(
          sql`select lexeme, docs from memory_lexemes where user_id = ${userId}::uuid`,
        )
      ).map((row) => [row.lexeme, row.docs]),
    ),
    corpus: (
      await use().unbound.rows<{ docs: number }>(sql`select docs from memory_corpus where user_id = ${userId}::uuid`)
    )[0]?.docs,
  });

  it("weighs a word by its rarity among this user's memories: a name in every memory counts for little", async () => {
    const results = await searchMemories(ctx, { query: "What did Caroline buy? A telescope?" });
    expect(texts(results)[0]).toBe("Caroline bought a telescope for the garden");
    // The name matches all 33 memories but is worth a fraction of the rare word: memories with the name alone score
    // a small share of the query.
    const mixed = await searchMemories(ctx, { query: "Caroline telescope", limit: 100 });
    expect(mixed).toHaveLength(33);
    const [best, ...rest] = mixed.map((result) => result.lexical!);
    expect(rest.every((score) => score < best! / 10)).toBe(true);
  });

  it("keeps document frequencies per user through inserts, edits, deletes, restores and purges", async () => {
    const own = contextFor(use(), await createUser(use()));
    const first = await createMemory(own, { content: "Likes green tea" });
    await createMemory(own, { content: "Drinks tea every morning" });
    expect(await statsOf(own.principal.userId)).toMatchObject({ lexemes: { tea: 2, green: 1 }, corpus: 2 });
    await updateMemory(own, first.id, { content: "Likes black coffee" });
    expect((await statsOf(own.principal.userId)).lexemes).toMatchObject({ tea: 1, coffe: 1, black: 1 });
    expect((await statsOf(own.principal.userId)).lexemes.green).toBeUndefined();
    await deleteMemory(own, first.id);
    expect(await statsOf(own.principal.userId)).toMatchObject({ corpus: 1 });
    expect((await statsOf(own.principal.userId)).lexemes.coffe).toBeUndefined();
    await restoreMemory(own, first.id);
    expect(await statsOf(own.principal.userId)).toMatchObject({ lexemes: { coffe: 1 }, corpus: 2 });
    await purgeMemory(own, first.id);
    expect(await statsOf(own.principal.userId)).toMatchObject({ lexemes: { tea: 1 }, corpus: 1 });
    expect(await dumpAllRows(use())).not.toMatch(/coffe/);
    // Another user's memories never count.
    expect((await statsOf(ctx.principal.userId)).lexemes.tea).toBeUndefined();
  });

  it("keeps the statistics exact under concurrent writers of one user (no deadlock, no lost count)", async () => {
    const own = contextFor(use(), await createUser(use()));
    const words = ["amber", "birch", "cedar", "dahlia", "elm", "fern"];
    const written = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        createMemory(own, {
          content: [...words.slice(index % 6), ...words.slice(0, index % 6), `n${index}`].join(" "),
        }),
      ),
    );
    await Promise.all(written.slice(0, 8).map((memory) => deleteMemory(own, memory.id)));
    const recount = await use().unbound.rows<{ lexeme: string; docs: number }>(sql`
      select l as lexeme, count(*)::int as docs
      from memories m cross join lateral unnest(tsvector_to_array(m.fts)) as l
      where m.user_id = ${own.principal.userId}::uuid and m.status = 'active' group by l`);
    expect((await statsOf(own.principal.userId)).lexemes).toEqual(
      Object.fromEntries(recount.map((row) => [row.lexeme, row.docs])),
    );
    expect((await statsOf(own.principal.userId)).corpus).toBe(16);
  });

  it("never reads a real English word as a typo of the user's vocabulary", async () => {
    // "rewarding" and "speak" are what trigram similarity would pick for "according" and "speech".
    const own = contextFor(use(), await createUser(use()));
    await createMemories(own, [
      { content: "Volunteering at the shelter is rewarding" },
      { content: "Learning to speak Portuguese" },
    ]);
    expect(await searchMemories(own, { query: "according to whom?" })).toEqual([]);
    expect(await searchMemories(own, { query: "the speech" })).toEqual([]);
    // A word that is neither English nor the user's own still finds the closest one they wrote, at half weight.
    const fixed = await searchMemories(own, { query: "volunteerin at a shelter" });
    expect(texts(fixed)).toEqual(["Volunteering at the shelter is rewarding"]);
    const exact = await searchMemories(own, { query: "volunteering at a shelter" });
    expect(fixed[0]!.score).toBeLessThan(exact[0]!.score);
  });

  it("matches the negations and the 'now' PostgreSQL's English stop list drops", async () => {
    const own = contextFor(use(), await createUser(use()));
    // Each pair shares every other word; the newer memory would win a tie.
    await createMemory(own, { content: "User can't swim" });
    await createMemory(own, { content: "User can swim" });
    await createMemory(own, { content: "Ana lives in Porto now" });
    await createMemory(own, { content: "Ana lived in Lisbon" });
    await createMemory(own, { content: "User is not a morning person" });
    await createMemory(own, { content: "User is a morning person" });
    expect(texts(await searchMemories(own, { query: "The user can't swim, right?" }))[0]).toBe("User can't swim");
    expect(texts(await searchMemories(own, { query: "Where does Ana live now?" }))[0]).toBe("Ana lives in Porto now");
    expect(texts(await searchMemories(own, { query: "is the user not a morning person" }))[0]).toBe(
      "User is not a morning person",
    );
  });

  it("finds what was told in another form of an irregular word: asked in the present, told in the past", async () => {
    const own = contextFor(use(), await createUser(use()));
    await createMemories(own, [
      { content: "Maya bought a kayak last spring" },
      { content: "Maya went to Lisbon in May" },
      { content: "Maya saw Fleet Foxes at the Greek Theatre" },
      { content: "Maya wants to buy a bike" },
      ...Array.from({ length: 10 }, (_, index) => ({ content: `Maya talked about the weather, part ${index}` })),
    ]);
    expect(texts(await searchMemories(own, { query: "Where did Maya go in May?" }))[0]).toBe(
      "Maya went to Lisbon in May",
    );
    expect(texts(await searchMemories(own, { query: "Which band did Maya see?" }))[0]).toBe(
      "Maya saw Fleet Foxes at the Greek Theatre",
    );
    // The query's own form and another count as one term: "buy" and "bought" score alike.
    const [bought, buy] = await Promise.all(
      ["Maya bought a kayak last spring", "Maya wants to buy a bike"].map(async (text) =>
        (await searchMemories(own, { query: "what does Maya buy" })).find((result) => result.memory.text === text),
      ),
    );
    expect(bought?.score).toBeGreaterThan(0);
    expect(Math.abs(bought!.score - buy!.score)).toBeLessThan(0.05);
  });

  it("finds what was told in a narrower word than the question's, below what says the question's own word", async () => {
    const own = contextFor(use(), await createUser(use()));
    await createMemories(own, [
      { content: "Maya finally bought a cello in January and practices every night" },
      { content: "Maya keeps her grandfather's old instrument case in the attic" },
      ...Array.from({ length: 10 }, (_, index) => ({ content: `Maya talked about the weather, part ${index}` })),
    ]);
    const results = await searchMemories(own, { query: "Which instrument does Maya have?" });
    expect(texts(results).slice(0, 2)).toEqual([
      "Maya keeps her grandfather's old instrument case in the attic",
      "Maya finally bought a cello in January and practices every night",
    ]);
    // The narrower word counts less than the question's own (and more than the name alone).
    expect(results[1]!.score).toBeLessThan(results[0]!.score);
    expect(results[1]!.score).toBeGreaterThan(results[2]!.score);
  });

  it("scores in [0, 1] with the lexical leg's value; equal scores come back newest first, the same on every call", async () => {
    const own = contextFor(use(), await createUser(use()));
    const written = [];
    for (const city of ["first", "second", "third"]) {
      written.push(await createMemory(own, { content: `Visited the museum, ${city} time` }));
    }
    const results = await searchMemories(own, { query: "museum" });
    expect(results.map((result) => result.memory.id)).toEqual(written.reverse().map((memory) => memory.id));
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
      expect(result.lexical).toBe(result.score);
      expect(result.vector).toBeUndefined();
    }
    const again = await searchMemories(own, { query: "museum" });
    expect(again.map((result) => result.memory.id)).toEqual(results.map((result) => result.memory.id));
  });

  it("answers a question about the user in general with what is known, and a specific one by its subject", async () => {
    const own = contextFor(use(), await createUser(use()));
    await createMemory(own, { kind: "profile", content: { name: "Priya" } });
    await createMemory(own, { content: "Works as a nurse in Toronto" });
    await createMemory(own, { content: "Allergic to peanuts" });
    for (const question of ["What do you know about me?", "who am I", "Tell me everything you remember about me."]) {
      const known = await searchMemories(own, { query: question });
      expect(texts(known)[0]).toBe("name: Priya");
      expect(texts(known).sort()).toEqual(["Allergic to peanuts", "Works as a nurse in Toronto", "name: Priya"].sort());
    }
    expect(texts(await searchMemories(own, { query: "what do you know about peanuts?" }))).toEqual([
      "Allergic to peanuts",
    ]);
  });

  it("takes stop-word-only, very long and other-script queries without failing", async () => {
    expect(await searchMemories(ctx, { query: "what is it that you are?" })).toEqual([]);
    const long = `${"telescope garden ".repeat(117)}`.slice(0, 2_000);
    expect(texts(await searchMemories(ctx, { query: long }))[0]).toBe("Caroline bought a telescope for the garden");
    const own = contextFor(use(), await createUser(use()));
    await createMemory(own, { content: "東京で働いています" });
    await createMemory(own, { content: "Живу в Москве" });
    expect(await searchMemories(own, { query: "東京" })).toEqual(expect.any(Array));
    expect(texts(await searchMemories(own, { query: "Москве" }))).toEqual(["Живу в Москве"]);
  });

  it("refuses vector mode when vectors are off, with a clear message", async () => {
    await expect(searchMemories(ctx, { query: "telescope", mode: "vector" })).rejects.toMatchObject({
      code: "unprocessable",
      message: expect.stringContaining("Vector search is off"),
    });
    expect(texts(await searchMemories(ctx, { query: "telescope", mode: "lexical" }))[0]).toContain("telescope");
  });
});

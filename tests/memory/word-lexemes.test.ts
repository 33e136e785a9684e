import { expect, it } from "vitest";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { warmSearch } from "@/lib/memory/search";
import { lexemesOfWords } from "@/lib/memory/search/word-lexemes";
import { relatedWordsIn } from "@/lib/memory/search/wordnet";
import { clearProcessState, existingProcessState } from "@/lib/process-state";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser } from "./support";

describeEachDatabase("the lexemes of single words", (use) => {
  const counting = (unit: UnitOfWork, statements: string[]): UnitOfWork => ({
    ...unit,
    rows: (query) => {
      statements.push("rows");
      return unit.rows(query);
    },
  });

  it("are read as memories are, stop words none, and asked of the database once", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const words = ["the", "cellos", "running", "is", "marathons", "now", "no", "zucchini"];
    const statements: string[] = [];
    const lexemesOf = await asUser(ctx, (unit) => lexemesOfWords(use(), counting(unit, statements), words));
    expect(words.map(lexemesOf)).toEqual([[], ["cello"], ["run"], [], ["marathon"], ["now"], ["no"], ["zucchini"]]);
    expect(statements).toHaveLength(1);
    const again = await asUser(ctx, (unit) => lexemesOfWords(use(), counting(unit, statements), ["marathons", "the"]));
    expect(again("marathons")).toEqual(["marathon"]);
    expect(statements).toHaveLength(1);
  });

  it("are all known once warmed, as a server warms them at start: a noun's first question asks nothing", async () => {
    const tables = ["english-words", "irregular-forms", "wordnet-verbs", "wordnet-adjectives", "wordnet-adverb-data"];
    for (const table of tables) clearProcessState(table);
    const warmed = warmSearch(use());
    // Read before the warming's first statement, not by the first search that needs them.
    expect(tables.filter((table) => existingProcessState(table) === undefined)).toEqual([]);
    await warmed;
    const ctx = contextFor(use(), await createUser(use()));
    const related = relatedWordsIn("which instrument and which vehicle?").flatMap((entry) => entry.words);
    expect(related).toEqual(expect.arrayContaining(["cello", "minivan"]));
    const statements: string[] = [];
    const lexemesOf = await asUser(ctx, (unit) => lexemesOfWords(use(), counting(unit, statements), related));
    expect(statements).toHaveLength(0);
    expect(lexemesOf("minivan")).toEqual(["minivan"]);
  });
});

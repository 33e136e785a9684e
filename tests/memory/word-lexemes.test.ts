import { expect, it } from "vitest";
import { asUser, type UnitOfWork } from "@/lib/db/unit-of-work";
import { lexemesOfWords } from "@/lib/memory/word-lexemes";
import { describeEachDatabase } from "../support/databases";
import { contextFor, createUser } from "./support";

describeEachDatabase("the lexemes of single words", (use) => {
  it("are read as memories are, stop words none, and asked of the database once", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const words = ["the", "cellos", "running", "is", "marathons", "now", "no", "zucchini"];
    const statements: string[] = [];
    const counting = (unit: UnitOfWork): UnitOfWork => ({
      ...unit,
      rows: (query) => {
        statements.push("rows");
        return unit.rows(query);
      },
    });
    const lexemesOf = await asUser(ctx, (unit) => lexemesOfWords(use(), counting(unit), words));
    expect(words.map(lexemesOf)).toEqual([[], ["cello"], ["run"], [], ["marathon"], ["now"], ["no"], ["zucchini"]]);
    expect(statements).toHaveLength(1);
    const again = await asUser(ctx, (unit) => lexemesOfWords(use(), counting(unit), ["marathons", "the"]));
    expect(again("marathons")).toEqual(["marathon"]);
    expect(statements).toHaveLength(1);
  });
});

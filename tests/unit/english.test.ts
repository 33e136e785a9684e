import { expect, it } from "vitest";
import { irregularFormsIn, possibleTypos } from "@/lib/memory/search/english";

it("reads contractions and possessives of English words as English, not as typos to correct", () => {
  expect(
    possibleTypos("The user can't swim, doesn't drive, won't fly and isn't sure; we're told the user's keen"),
  ).toEqual([]);
  expect(possibleTypos("Is the nurce Ottoline's friend?")).toEqual(["nurce", "ottoline's"]);
});

it("gives the other forms of a query's irregular verbs and nouns, and only of the words they are forms of", () => {
  const forms = (query: string) => irregularFormsIn(query).map(({ word, form }) => `${word}>${form}`);
  expect(forms("Which band did she see?")).toEqual(expect.arrayContaining(["see>saw", "see>seen", "did>do"]));
  // "saw" is also a verb of its own (sawed, sawn), but "see" is not a form of it.
  expect(forms("see")).not.toContain("see>sawn");
  expect(forms("She saw it")).toEqual(expect.arrayContaining(["saw>see", "saw>sawn"]));
  expect(forms("How many children?")).toEqual(["children>child"]);
  expect(forms("The tea was green")).toEqual(expect.arrayContaining(["was>be"]));
  expect(forms("tea green")).toEqual([]);
});

import { expect, it } from "vitest";
import { possibleTypos } from "@/lib/memory/english";

it("reads contractions and possessives of English words as English, not as typos to correct", () => {
  expect(
    possibleTypos("The user can't swim, doesn't drive, won't fly and isn't sure; we're told the user's keen"),
  ).toEqual([]);
  expect(possibleTypos("Is the nurce Ottoline's friend?")).toEqual(["nurce", "ottoline's"]);
});

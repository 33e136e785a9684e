import { describe, expect, it } from "vitest";
import { type DiffPart, tokenize, wordDiff } from "@/lib/console/diff";

const side = (parts: DiffPart[], keep: "added" | "removed") =>
  parts
    .filter((part) => part.type === "same" || part.type === keep)
    .map((part) => part.text)
    .join("");

describe("wordDiff", () => {
  it("marks the changed word and keeps the rest", () => {
    expect(wordDiff("User prefers dark mode", "User prefers light mode")).toEqual([
      { type: "same", text: "User prefers " },
      { type: "removed", text: "dark" },
      { type: "added", text: "light" },
      { type: "same", text: " mode" },
    ]);
  });

  it("handles insertions and deletions in the middle and at the ends", () => {
    expect(wordDiff("a c", "a b c")).toEqual([
      { type: "same", text: "a " },
      { type: "added", text: "b " },
      { type: "same", text: "c" },
    ]);
    expect(wordDiff("one two three", "two")).toEqual([
      { type: "removed", text: "one " },
      { type: "same", text: "two" },
      { type: "removed", text: " three" },
    ]);
    expect(wordDiff("", "new text")).toEqual([{ type: "added", text: "new text" }]);
    expect(wordDiff("same", "same")).toEqual([{ type: "same", text: "same" }]);
  });

  it("always reconstructs both texts exactly, whitespace included", () => {
    const pairs = [
      ["The quick  brown fox\njumps", "The slow brown\tfox jumps high"],
      ["a b a b a b", "b a b a"],
      ["Observation: x\nThoughts: y", "Observation: z\nThoughts: y\nAction: w"],
    ] as const;
    for (const [before, after] of pairs) {
      const parts = wordDiff(before, after);
      expect(side(parts, "removed")).toBe(before);
      expect(side(parts, "added")).toBe(after);
    }
  });

  it("falls back to replace-all for huge rewrites instead of building a giant table", () => {
    const before = Array.from({ length: 3_000 }, (_, i) => `a${i}`).join(" ");
    const after = Array.from({ length: 3_000 }, (_, i) => `b${i}`).join(" ");
    const parts = wordDiff(before, after);
    expect(parts.map((part) => part.type)).toEqual(["removed", "added"]);
    expect(side(parts, "added")).toBe(after);
  });

  it("tokenizes into words and whitespace runs", () => {
    expect(tokenize("a  b\nc")).toEqual(["a", "  ", "b", "\n", "c"]);
  });
});

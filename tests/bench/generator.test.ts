import { describe, expect, it } from "vitest";
import { generateUser, ownerOfKey } from "@/bench/data/generator";
import { Random, withTypo } from "@/bench/data/random";
import { bucketsOf, scales, totalMemories } from "@/bench/data/scales";
import { recallAtK, summarize } from "@/bench/metrics";

describe("bench data generator", () => {
  it("is a pure function of the seed and the user", () => {
    const spec = { name: "1", memories: 120 };
    expect(generateUser(7, spec, 5)).toEqual(generateUser(7, spec, 5));
    expect(generateUser(8, spec, 5).memories).not.toEqual(generateUser(7, spec, 5).memories);
    expect(generateUser(7, { name: "10", memories: 120 }, 5).memories.map((m) => m.text)).not.toEqual(
      generateUser(7, spec, 5).memories.map((m) => m.text),
    );
  });

  it("writes exactly the requested memories with unique keys owned by the user, of every kind", () => {
    const user = generateUser(1, { name: "10", memories: 300 }, 6);
    expect(user.memories).toHaveLength(300);
    expect(new Set(user.memories.map((m) => m.key)).size).toBe(300);
    expect(new Set(user.memories.map((m) => ownerOfKey(m.key)))).toEqual(new Set(["10"]));
    expect(new Set(user.memories.map((m) => m.kind))).toEqual(
      new Set(["preference", "memory", "episode", "procedure"]),
    );
    expect(new Set(user.memories.map((m) => m.text)).size).toBeGreaterThan(150);
  });

  it("gives each question a non-empty relevant set of that user's memories", () => {
    const user = generateUser(3, { name: "1", memories: 200 }, 6);
    const keys = new Set(user.memories.map((m) => m.key));
    expect(user.queries).toHaveLength(6);
    for (const query of user.queries) {
      expect(query.user).toBe("1");
      expect(query.relevant.length).toBeGreaterThan(0);
      expect(query.relevant.every((key) => keys.has(key))).toBe(true);
    }
  });

  it("lays users out so that one name is a string prefix of another", () => {
    const names = scales.smoke.users.map((user) => user.name);
    expect(names.some((a) => names.some((b) => a !== b && b.startsWith(a)))).toBe(true);
    expect(totalMemories(scales["100k"])).toBe(100_000);
    expect(bucketsOf(scales["100k"]).map((bucket) => bucket.memoriesPerUser)).toEqual([1_000, 10_000]);
  });

  it("makes a typo by swapping two adjacent letters of one word", () => {
    const typo = withTypo(new Random(5), "Prefers Neovim as their editor");
    expect(typo).not.toBe("Prefers Neovim as their editor");
    expect([...typo].sort().join("")).toBe([..."Prefers Neovim as their editor"].sort().join(""));
  });
});

describe("bench metrics", () => {
  it("computes recall@k against min(k, relevant)", () => {
    expect(recallAtK(["a", "x", "b"], ["a", "b"], 10)).toBe(1);
    expect(recallAtK(["x", "a"], ["a", "b"], 10)).toBe(0.5);
    expect(recallAtK(["x", "y", "a"], ["a"], 2)).toBe(0);
    expect(recallAtK(["a", "a"], ["a", "b"], 10)).toBe(0.5);
    const twelve = Array.from({ length: 12 }, (_, i) => `k${i}`);
    expect(recallAtK(twelve, twelve, 10)).toBe(1);
    expect(recallAtK([], [], 10)).toBeNaN();
  });

  it("takes nearest-rank percentiles", () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(summarize(samples)).toMatchObject({ n: 100, p50: 50, p95: 95, p99: 99, mean: 50.5 });
  });
});

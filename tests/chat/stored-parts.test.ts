import { describe, expect, it } from "vitest";
import { upgradeStoredParts } from "@/lib/chat/stored-parts";

describe("stored answers from before the model-facing memory shape", () => {
  it("read a memory tool's `content` as `text`, and leave every other part as it was", () => {
    const text = { type: "text", text: "Done." };
    const pending = { type: "tool-search_memory", state: "input-available", input: { query: "tea" } };
    const current = {
      type: "tool-manage_memory",
      state: "output-available",
      output: { action: "created", id: "m2", text: "Drinks oolong", version: 1 },
    };
    const parts = upgradeStoredParts([
      text,
      pending,
      current,
      {
        type: "tool-manage_memory",
        state: "output-available",
        input: { action: "create", content: "Drinks tea" },
        output: { action: "created", id: "m1", content: "Drinks tea", version: 1 },
      },
      {
        type: "tool-search_memory",
        state: "output-available",
        output: [{ id: "m1", kind: "memory", content: "Drinks tea", score: 0.9, updatedAt: "2026-01-01" }],
      },
    ]);
    expect(parts).toEqual([
      text,
      pending,
      current,
      {
        type: "tool-manage_memory",
        state: "output-available",
        input: { action: "create", content: "Drinks tea" },
        output: { action: "created", id: "m1", text: "Drinks tea", version: 1 },
      },
      {
        type: "tool-search_memory",
        state: "output-available",
        output: [{ id: "m1", kind: "memory", text: "Drinks tea", score: 0.9, updatedAt: "2026-01-01" }],
      },
    ]);
  });
});

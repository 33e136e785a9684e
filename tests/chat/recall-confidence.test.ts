import { expect, it } from "vitest";
import { RECALL_JUDGED_FROM, recallMemories } from "@/lib/chat/recall";
import { LIMITS } from "@/lib/memory/contract";
import { searchMemories } from "@/lib/memory/search";
import { createMemories, createMemory } from "@/lib/memory/store";
import { contextFor, createUser } from "../memory/support";
import { describeEachDatabase } from "../support/databases";

const PLACES = ["bakery", "post office", "hardware store", "market", "pharmacy", "library", "bank", "garage"];
/** A user's everyday chatter, which none of the questions below is about: enough memories to judge confidence by. */
const errands = Array.from({ length: RECALL_JUDGED_FROM + 10 }, (_, index) => ({
  content: `Errand ${index + 1}: get stamps at the ${PLACES[index % PLACES.length]} before noon`,
}));
const UNANSWERED = "Where did my sister get the tattoo?";

describeEachDatabase("chat recall and confidence", (use) => {
  it("puts only confident hits in front of the model: a question nothing answers recalls nothing", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    await createMemories(ctx, [{ content: "I drink green tea every morning" }, ...errands]);
    // Search still ranks its least bad matches for the question; none of them is confident.
    const hits = await searchMemories(ctx, { query: UNANSWERED, limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.confidence < LIMITS.confidenceFloor)).toBe(true);
    expect(await recallMemories(ctx, UNANSWERED)).toEqual([]);

    const recalled = await recallMemories(ctx, "Which tea do I drink?");
    expect(recalled.map((memory) => memory.text)).toEqual(["I drink green tea every morning"]);
  });

  it("still recalls pinned memories whatever the question", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    const pinned = await createMemory(ctx, { content: "User is allergic to peanuts", pinned: true });
    await createMemories(ctx, errands);
    expect((await recallMemories(ctx, UNANSWERED)).map((memory) => memory.id)).toEqual([pinned.id]);
  });

  it("over a few memories, keeps its best matches, whose confidence cannot be judged", async () => {
    const ctx = contextFor(use(), await createUser(use()));
    await createMemories(ctx, errands.slice(0, 3));
    const hits = await searchMemories(ctx, { query: UNANSWERED, limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    expect((await recallMemories(ctx, UNANSWERED)).map((memory) => memory.id)).toEqual(
      hits.map((hit) => hit.memory.id),
    );
  });
});

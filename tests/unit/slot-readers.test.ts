import { describe, expect, it } from "vitest";
import { readMessage } from "@/lib/ai/offline/intent";
import { slotOf } from "@/lib/text/slots";

/** The facts (memory texts) the offline model reads from one user message. */
const factsOf = (message: string) => readMessage(message).facts.map((fact) => fact.content);

describe("one list for each word class the offline reader and the slot rules share", () => {
  // Each adverb was known to one reader only: the statement reader kept "mostly" and the slot rules skipped
  // "officially", so a fact the reader wrote could fill no slot, or a slot be read from a fact never written.
  it.each(["mostly", "officially", "proudly", "truly"])(
    "reads 'I %s live in Lisbon' as a home, both ways",
    (adverb) => {
      const [fact] = factsOf(`I ${adverb} live in Lisbon.`);
      expect(fact).toBe(`User ${adverb} lives in Lisbon`);
      expect(slotOf(fact!)).toEqual({ key: "residence", value: "lisbon" });
    },
  );

  it.each([
    ["Most weekends I go sailing.", "User goes sailing most weekends"],
    ["On Sundays I swim in the sea.", "User swims in the sea on Sundays"],
    // "all" qualifies a time period for the offline consolidation ("all summer") as "most" does.
    ["All summer I'm sailing small boats.", "User is sailing small boats all summer"],
  ])("moves a leading time expression of %j to the end", (message, fact) => {
    expect(factsOf(message)).toEqual([fact]);
  });
});

import { describe, expect, it } from "vitest";
import { planOps } from "@/lib/ai/offline/extraction";
import { changeStartedOn } from "@/lib/ai/offline/when";

const said = new Date("2026-12-10T15:30:00.000Z");

describe("the offline manager dates a change from the message's time", () => {
  it.each([
    ["I moved to Vancouver last month", "2026-11-01"],
    ["I moved to Vancouver yesterday", "2026-12-09"],
    ["I started at Acme last week", "2026-12-03"],
    ["I joined the choir last year", "2025-01-01"],
    ["I moved to Lisbon two months ago", "2026-10-01"],
    ["I moved to São Paulo, Brazil in 2019", "2019-01-01"],
  ])("%s → %s", (quote, day) => {
    expect(changeStartedOn(quote, said)).toBe(day);
  });

  it.each([["I read a lot last year"], ["I moved to Vancouver"], ["I moved to Mars in 2999"]])(
    "dates nothing for %s",
    (quote) => {
      expect(changeStartedOn(quote, said)).toBeNull();
    },
  );

  it("needs the message's time", () => {
    expect(changeStartedOn("I moved to Vancouver last month", undefined)).toBeNull();
  });

  it("turns a dated move into an update with validFrom, which the manager applies as a supersede", () => {
    const ops = planOps({
      kinds: ["memory"],
      allowed: ["insert", "update", "delete"],
      existing: [{ id: "mem1", version: 2, kind: "memory", text: "User lives in Toronto" }],
      deleted: [],
      messages: [{ id: "u1", role: "user", text: "I moved to Vancouver last month.", createdAt: said.toISOString() }],
    }).map((planned) => planned.op);
    expect(ops).toEqual([
      {
        op: "update",
        id: "mem1",
        expectedVersion: 2,
        content: { content: "User lives in Vancouver" },
        messageId: "u1",
        quote: "I moved to Vancouver last month",
        reason: "The user stated a new value for this.",
        validFrom: "2026-11-01",
      },
    ]);
  });
});

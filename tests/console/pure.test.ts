import { describe, expect, it } from "vitest";
import { contentFromValues, fieldValues } from "@/lib/console/kind-fields";
import { dateRange, listHref, namespaceFilter, parseListQuery } from "@/lib/console/list-query";
import { opLine } from "@/lib/console/runs";
import { highlightQuote } from "@/lib/console/source";

describe("list query", () => {
  it("reads valid parameters and drops invalid ones instead of failing", () => {
    const query = parseListQuery({
      q: "  editor ",
      kind: "preference",
      status: "nonsense",
      source: "chat",
      sort: "created_asc",
      from: "2026-01-01",
      to: "not a date",
      as: "not-a-uuid",
      namespace: ["prefs.editor", "ignored"],
    });
    expect(query).toMatchObject({
      q: "editor",
      kind: "preference",
      status: "active",
      source: "chat",
      sort: "created_asc",
    });
    expect(query.to).toBeUndefined();
    expect(query.as).toBeUndefined();
    expect(namespaceFilter(query)).toEqual(["prefs", "editor"]);
  });

  it("treats an invalid namespace as no filter and `to` as a whole day", () => {
    expect(namespaceFilter(parseListQuery({ namespace: "a..b" }))).toBeUndefined();
    expect(dateRange(parseListQuery({ from: "2026-02-01", to: "2026-02-01" }))).toEqual({
      after: new Date("2026-02-01T00:00:00.000Z"),
      before: new Date("2026-02-02T00:00:00.000Z"),
    });
  });

  it("builds links that keep the filters, drop defaults and reset the cursor", () => {
    const query = parseListQuery({ kind: "memory", cursor: "abc", status: "active" });
    expect(listHref(query, {})).toBe("/memories?kind=memory");
    expect(listHref(query, { cursor: "next" })).toBe("/memories?kind=memory&cursor=next");
    expect(listHref({}, {})).toBe("/memories");
  });
});

describe("highlightQuote", () => {
  it("marks the exact span", () => {
    expect(highlightQuote("Hi! Remember that I prefer dark mode, thanks", "I prefer dark mode")).toEqual([
      { text: "Hi! Remember that ", marked: false },
      { text: "I prefer dark mode", marked: true },
      { text: ", thanks", marked: false },
    ]);
  });

  it("tolerates case and whitespace differences, and says when the quote is absent", () => {
    expect(highlightQuote("I PREFER\n dark  mode", "i prefer dark mode")).toEqual([
      { text: "I PREFER\n dark  mode", marked: true },
    ]);
    expect(highlightQuote("something else", "dark mode")).toBeNull();
    expect(highlightQuote("regex (chars) [here]", "(chars) [here]")?.[1]).toEqual({
      text: "(chars) [here]",
      marked: true,
    });
  });
});

describe("kind forms", () => {
  it("validates each kind's fields and leaves empty optional fields out", () => {
    expect(contentFromValues("preference", { subject: "", preference: " tea ", context: "" })).toEqual({
      ok: true,
      content: { preference: "tea" },
    });
    expect(contentFromValues("preference", { subject: "drinks", preference: "" })).toEqual({
      ok: false,
      errors: { preference: "Required." },
    });
    const episode = contentFromValues("episode", { observation: "o", thoughts: "t", action: "", result: "r" });
    expect(episode).toEqual({ ok: false, errors: { action: "Required." } });
  });

  it("edits other kinds as JSON", () => {
    expect(fieldValues("profile", { name: "Ada" })).toEqual({ json: '{\n  "name": "Ada"\n}' });
    expect(contentFromValues("profile", { json: '{"name":"Ada"}' })).toEqual({ ok: true, content: { name: "Ada" } });
    expect(contentFromValues("profile", { json: "{nope" })).toEqual({
      ok: false,
      errors: { json: "This is not valid JSON." },
    });
  });
});

describe("opLine", () => {
  it("reads proposed, applied and rejected ops as the extractor logs them", () => {
    expect(
      opLine({ op: "insert", kind: "preference", content: { preference: "tea" }, messageId: "m", quote: "I like tea" }),
    ).toEqual({ op: "insert", text: "tea", memoryId: undefined, reason: undefined, quote: "I like tea" });
    expect(opLine({ op: "update", memoryId: "id-1", version: 2, text: "Likes tea" })).toMatchObject({
      op: "update",
      text: "Likes tea",
      memoryId: "id-1",
    });
    expect(opLine({ op: { op: "delete", id: "id-2", reason: "user said so" }, reason: "unknown id" })).toMatchObject({
      op: "delete",
      memoryId: "id-2",
      reason: "unknown id",
    });
    expect(opLine("garbage")).toEqual({ op: "unknown", text: '"garbage"' });
  });
});

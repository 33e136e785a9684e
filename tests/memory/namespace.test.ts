import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { parseDottedNamespace } from "@/lib/memory/contract";
import {
  absoluteNamespace,
  intArray,
  NamespaceTemplateError,
  relativeNamespace,
  resolveNamespaceTemplate,
  textArray,
} from "@/lib/memory/core";
import { describeEachDatabase } from "../support/databases";

describe("namespace templates", () => {
  it("fills whole-segment and embedded placeholders from the context", () => {
    expect(resolveNamespaceTemplate(["memories", "{userId}"], { userId: "u1" })).toEqual(["memories", "u1"]);
    expect(resolveNamespaceTemplate(["org-{orgId}", "{userId}"], { orgId: "7", userId: "u1" })).toEqual([
      "org-7",
      "u1",
    ]);
  });

  it("raises NamespaceTemplateError for a missing or empty key instead of sharing a namespace", () => {
    expect(() => resolveNamespaceTemplate(["memories", "{userId}"], {})).toThrow(NamespaceTemplateError);
    expect(() => resolveNamespaceTemplate(["memories", "{userId}"], { userId: "" })).toThrow(NamespaceTemplateError);
  });

  it("validates resolved segments", () => {
    expect(() => resolveNamespaceTemplate(["{a}"], { a: "x.y" })).toThrow(ValidationError);
  });
});

describe("relative namespaces", () => {
  it("prepends and strips the root", () => {
    expect(absoluteNamespace(["users", "1"], ["a", "b"])).toEqual(["users", "1", "a", "b"]);
    expect(relativeNamespace(["users", "1"], ["users", "1", "a"])).toEqual(["a"]);
    expect(() => relativeNamespace(["users", "1"], ["users", "10", "a"])).toThrow();
  });

  it("parses the dotted query-string form", () => {
    expect(parseDottedNamespace("a.b")).toEqual(["a", "b"]);
    expect(parseDottedNamespace("")).toEqual([]);
    expect(parseDottedNamespace(null)).toEqual([]);
    expect(() => parseDottedNamespace("a..b")).toThrow(ValidationError);
  });
});

describeEachDatabase("array parameters", (use) => {
  it("reach the database as written, in one parameter whatever their length", async () => {
    const values = ['say "hi"', "back\\slash", "a,b", "{braces}", "", "NULL", " padded ", "ünïcødé", "it's"];
    const [row] = await use().unbound.rows<{ texts: string[]; ints: number[] }>(
      sql`select ${textArray(values)} as texts, ${intArray([3, -1, 0])} as ints`,
    );
    expect(row).toEqual({ texts: values, ints: [3, -1, 0] });
    const text = (count: number) => new PgDialect().sqlToQuery(textArray(Array(count).fill("x"))).sql;
    expect(text(0)).toBe(text(500));
  });
});

import { zodSchema } from "@ai-sdk/provider-utils";
import { generateText, Output } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { MAX_OPS, managerAnswerSchema, parseManagerAnswer } from "@/lib/memory/extraction/ops";
import { type ProviderStub, startProviderStub } from "../support/provider-stubs";
import { type ProviderCase, providerCases } from "./cases";
import { type StrictTarget, strictFindings } from "./strict-rules";

let stub: ProviderStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const targetOf: Record<ProviderCase["format"], StrictTarget> = {
  "openai-chat": "openai",
  "openai-responses": "openai",
  anthropic: "anthropic",
  google: "google",
};

/** The JSON schema a provider package actually sends for `schema`, captured by a stub. */
async function sentSchema(testCase: ProviderCase, schema: z.ZodType, answer: string) {
  const capture = await startProviderStub(testCase.format, [{ json: answer }]);
  try {
    await generateText({
      model: testCase.model(capture.baseURL),
      prompt: "Extract",
      output: Output.object({ schema, name: "memory_ops" }),
    });
    const body = capture.requests[0]!.body;
    return { body, schema: testCase.schemaOf(body) };
  } finally {
    await capture.close();
  }
}

const byName = (name: string) => providerCases.find((testCase) => testCase.name.includes(name))!;

describe("the manager's answer schema (managerAnswerSchema) and how answers are read (parseManagerAnswer)", () => {
  it("has no findings for any provider, converted as the AI SDK converts zod schemas", async () => {
    const jsonSchema = await zodSchema(managerAnswerSchema).jsonSchema;
    for (const target of ["openai", "anthropic", "google"] as const) {
      expect({ target, findings: strictFindings(jsonSchema, target) }).toEqual({ target, findings: [] });
    }
  });

  it.each(providerCases)("has no findings as $name sends it", async (testCase) => {
    const { body, schema } = await sentSchema(testCase, managerAnswerSchema, '{"ops":[]}');
    expect(strictFindings(schema, targetOf[testCase.format])).toEqual([]);
    // Nothing optional, so @ai-sdk/anthropic keeps native structured output rather than the JSON-tool fallback.
    if (testCase.format === "anthropic") expect(body.output_config).toBeDefined();
  });

  it("expresses insert, update and delete: a provider's answer read into the ops the validator applies", async () => {
    const none = {
      id: null,
      expectedVersion: null,
      kind: null,
      text: null,
      fields: null,
      messageId: null,
      quote: null,
      validFrom: null,
      validTo: null,
    };
    const answer = {
      ops: [
        {
          ...none,
          op: "insert",
          kind: "memory",
          text: "User likes tea",
          messageId: "m1",
          quote: "I like tea",
          reason: null,
        },
        {
          ...none,
          op: "insert",
          kind: "preference",
          fields: [
            { name: "preference", value: "green tea" },
            { name: "context", value: "mornings" },
          ],
          messageId: "m1",
          quote: "green tea in the morning",
          reason: null,
        },
        {
          ...none,
          op: "update",
          id: "mem-1",
          expectedVersion: 3,
          kind: "memory",
          text: "User lives in Lisbon",
          messageId: "m2",
          quote: "we moved to Lisbon",
          reason: "moved",
        },
        {
          ...none,
          op: "delete",
          id: "mem-2",
          messageId: "m2",
          quote: "forget my old address",
          reason: "asked to forget",
        },
        { ...none, op: "insert", kind: "memory", text: "No quote", messageId: "m1", quote: null, reason: null },
        { ...none, op: "update", id: "mem-3", expectedVersion: 0, text: "x", messageId: "m1", quote: "q", reason: "r" },
      ],
    };
    stub = await startProviderStub("openai-responses", [{ json: JSON.stringify(answer) }]);
    const result = await generateText({
      model: byName("Responses").model(stub.baseURL),
      prompt: "Extract",
      output: Output.object({ schema: managerAnswerSchema, name: "memory_ops" }),
    });
    const { ops, rejected } = parseManagerAnswer(result.output);

    expect(ops).toEqual([
      { op: "insert", kind: "memory", content: { content: "User likes tea" }, messageId: "m1", quote: "I like tea" },
      {
        op: "insert",
        kind: "preference",
        content: { preference: "green tea", context: "mornings" },
        messageId: "m1",
        quote: "green tea in the morning",
      },
      {
        op: "update",
        id: "mem-1",
        expectedVersion: 3,
        content: { content: "User lives in Lisbon" },
        messageId: "m2",
        quote: "we moved to Lisbon",
        reason: "moved",
      },
      { op: "delete", id: "mem-2", messageId: "m2", quote: "forget my old address", reason: "asked to forget" },
    ]);
    expect(rejected.map((entry) => entry.reason)).toEqual([
      expect.stringMatching(/^invalid insert op \("quote": /),
      expect.stringMatching(/^invalid update op \("expectedVersion": /),
    ]);
  });

  it("rejects ops beyond the limit and repeated fields one by one, instead of failing the whole answer", () => {
    const op = {
      op: "delete" as const,
      id: "mem-1",
      expectedVersion: null,
      kind: null,
      text: null,
      fields: null,
      messageId: "m1",
      quote: "forget it",
      reason: "asked to forget",
    };
    const repeated = {
      ...op,
      op: "insert" as const,
      id: null,
      kind: "preference",
      fields: [
        { name: "preference", value: "tea" },
        { name: "preference", value: "coffee" },
      ],
      messageId: "m1",
      quote: "tea, no, coffee",
      reason: null,
    };
    const { ops, rejected } = parseManagerAnswer({ ops: [repeated, ...Array.from({ length: 60 }, () => op)] });

    expect(ops).toHaveLength(MAX_OPS - 1);
    expect(rejected.map((entry) => entry.reason)).toEqual([
      'invalid op ("fields" repeat a name)',
      ...Array.from({ length: 11 }, (_, i) => `over the limit of ${MAX_OPS} ops in one answer (op ${MAX_OPS + 1 + i})`),
    ]);
  });

  it("rejects an op with a field the schema does not have, naming it, and keeps the others", () => {
    const insert = { op: "insert", kind: "memory", text: "User likes tea", messageId: "m1", quote: "I like tea" };
    const { ops, rejected } = parseManagerAnswer({ ops: [{ ...insert, confidence: 0.9 }, insert] });
    expect(ops).toEqual([
      { op: "insert", kind: "memory", content: { content: "User likes tea" }, messageId: "m1", quote: "I like tea" },
    ]);
    expect(rejected.map((entry) => entry.reason)).toEqual(['unexpected field "confidence"']);
  });

  it("reads answers that are fenced, prefixed with prose or cut off mid-list, keeping every complete op", () => {
    const op = (text: string) => ({ op: "insert", kind: "memory", text, messageId: "m1", quote: "tea" });
    const json = JSON.stringify({ ops: [op("User likes tea"), op("User likes green tea")] });
    const texts = (answer: string) =>
      parseManagerAnswer(answer).ops.map((entry) => (entry as { content: { content: string } }).content.content);
    expect(texts(`\`\`\`json\n${json}\n\`\`\``)).toEqual(["User likes tea", "User likes green tea"]);
    expect(texts(`Here are the operations:\n${json}`)).toEqual(["User likes tea", "User likes green tea"]);
    expect(texts(json.slice(0, json.indexOf("User likes green") + 5))).toEqual(["User likes tea"]);
    expect(parseManagerAnswer("I cannot help with that.")).toMatchObject({
      ops: [],
      unreadable: "the answer was not JSON",
    });
    expect(parseManagerAnswer({ operations: [] })).toMatchObject({
      unreadable: 'the answer had no "ops" list of operations',
    });
  });
});

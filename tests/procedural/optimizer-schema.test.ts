import { zodSchema } from "@ai-sdk/provider-utils";
import { generateText, Output } from "ai";
import { describe, expect, it } from "vitest";
import { checkAnswer } from "@/lib/memory/optimizer/answer";
import { optimizerAnswerSchema } from "@/lib/memory/optimizer/prompt";
import { type ProviderCase, providerCases } from "../providers/cases";
import { type StrictTarget, strictFindings } from "../providers/strict-rules";
import { startProviderStub } from "../support/provider-stubs";

const targetOf: Record<ProviderCase["format"], StrictTarget> = {
  "openai-chat": "openai",
  "openai-responses": "openai",
  anthropic: "anthropic",
  google: "google",
};

const FEEDBACK_ID = "11111111-1111-4111-8111-111111111111";
const ANSWER = {
  change: true,
  text: "Keep answers short; use bullet points.",
  reason: "The user asked for it.",
  feedbackIds: [FEEDBACK_ID],
  droppedLines: [],
};

describe("the optimizer's answer schema", () => {
  it("has no strict-mode findings for any provider", async () => {
    const jsonSchema = await zodSchema(optimizerAnswerSchema).jsonSchema;
    for (const target of ["openai", "anthropic", "google"] as const) {
      expect({ target, findings: strictFindings(jsonSchema, target) }).toEqual({ target, findings: [] });
    }
  });

  it.each(providerCases)("is sent strict-safe and read back over the $name wire", async (testCase) => {
    const stub = await startProviderStub(testCase.format, [{ json: JSON.stringify(ANSWER) }]);
    try {
      const result = await generateText({
        model: testCase.model(stub.baseURL),
        prompt: "Feedback",
        output: Output.object({ schema: optimizerAnswerSchema, name: "instructions_change" }),
      });
      expect(strictFindings(testCase.schemaOf(stub.requests[0]!.body), targetOf[testCase.format])).toEqual([]);
      const input = {
        current: { version: 0, text: "", handWritten: [] },
        feedback: [{ id: FEEDBACK_ID, rating: "down" as const, comment: "too long", question: "q", answer: "a" }],
      };
      expect(checkAnswer(result.output, input)).toEqual({
        kind: "change",
        change: { text: ANSWER.text, reason: ANSWER.reason, feedbackIds: [FEEDBACK_ID] },
      });
    } finally {
      await stub.close();
    }
  });
});

// Asking the memory manager (the model) for its ops, and reading its answer op by op.

import {
  APICallError,
  generateText,
  jsonSchema,
  type LanguageModel,
  NoObjectGeneratedError,
  Output,
  zodSchema,
} from "ai";
import { modelTelemetry } from "@/lib/telemetry";
import { type ManagerAnswer, managerAnswerSchema, parseManagerAnswer } from "./ops";

/**
 * The manager's answer, read op by op (parseManagerAnswer). The provider is given the wire schema, which every
 * strict mode accepts, but the answer is not held to it as a whole: a model that adds a field to one op, sends 200
 * ops, fences its JSON or is cut off mid-list still gets its valid ops applied.
 */
export async function askManager(
  model: LanguageModel,
  request: { instructions: string; prompt: string },
): Promise<{ answer: ManagerAnswer; usage: { inputTokens?: number; outputTokens?: number } }> {
  const wire = zodSchema(managerAnswerSchema);
  try {
    const result = await generateText({
      model,
      instructions: request.instructions,
      prompt: request.prompt,
      telemetry: modelTelemetry("extraction"),
      output: Output.object({
        schema: jsonSchema<unknown>(() => wire.jsonSchema, { validate: (value) => ({ success: true, value }) }),
        name: "memory_ops",
      }),
    });
    return { answer: parseManagerAnswer(result.output), usage: usageOf(result.usage) };
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    return { answer: parseManagerAnswer(error.text ?? ""), usage: usageOf(error.usage) };
  }
}

const usageOf = (usage: { inputTokens?: number; outputTokens?: number } | undefined) => ({
  inputTokens: usage?.inputTokens,
  outputTokens: usage?.outputTokens,
});

/** Nothing could be read from the manager's answer (see ManagerAnswer.unreadable). */
export class UnreadableAnswerError extends Error {
  constructor(why: string) {
    super(`The manager's answer could not be read: ${why}.`);
    this.name = "UnreadableAnswerError";
  }
}

/**
 * A failure that the same request would meet again: the provider refusing it as it is (a 4xx other than timeout,
 * conflict and rate limiting) or an answer with nothing to read. Network faults, 429 and 5xx are worth a retry.
 */
export function isDeterministicFailure(error: unknown): boolean {
  if (error instanceof UnreadableAnswerError) return true;
  if (!APICallError.isInstance(error)) return false;
  const status = error.statusCode;
  return status !== undefined && status >= 400 && status < 500 && ![408, 409, 429].includes(status);
}

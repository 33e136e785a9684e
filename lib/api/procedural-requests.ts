import { z } from "zod";
import {
  createFeedbackInputSchema,
  feedbackJson,
  instructionsJson,
  instructionVersionJson,
  putInstructionsInputSchema,
} from "@/lib/memory/contract";

/**
 * Request and response shapes of feedback and instructions (docs/memory-model.md), built from the core's input schemas.
 */
export const createFeedbackBody = createFeedbackInputSchema;
export const putInstructionsBody = putInstructionsInputSchema;

export const feedbackResponse = z.strictObject({ feedback: feedbackJson });
export const instructionsResponse = z.strictObject({
  instructions: instructionsJson.nullable().describe("null until the user or the optimizer first writes some."),
  versions: z.array(instructionVersionJson).describe("Newest first."),
});

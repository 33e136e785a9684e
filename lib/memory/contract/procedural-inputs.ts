import { z } from "zod";
import { LIMITS } from "./limits";
import { FEEDBACK_RATINGS } from "./shapes";

// The inputs of procedural memory (docs/memory-model.md). Only zod and the other schema modules, like
// ./review-inputs.ts.

export const createFeedbackInputSchema = z.strictObject({
  messageId: z.string().min(1).max(LIMITS.idChars),
  rating: z.enum(FEEDBACK_RATINGS, { error: 'rating is "up" or "down"' }),
  comment: z.string().trim().max(LIMITS.feedbackCommentChars).optional(),
});
export type CreateFeedbackInput = z.input<typeof createFeedbackInputSchema>;

export const putInstructionsInputSchema = z.strictObject({
  text: z.string().trim().max(LIMITS.instructionsChars),
  expectedVersion: z.number().int().min(0).optional(),
  reason: z.string().trim().min(1).max(LIMITS.reasonChars).optional(),
});
export type PutInstructionsInput = z.input<typeof putInstructionsInputSchema>;

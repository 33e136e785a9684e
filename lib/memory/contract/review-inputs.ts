import { z } from "zod";
import { contentInput, reasonInput } from "./inputs";
import { LIMITS } from "./limits";
import { REVIEW_MODES } from "./shapes";

// The inputs of review, rules and settings (docs/memory-model.md). Only zod and the other schema modules: the SDK
// compiles these in, so they must not reach the database.

export const approveProposalInputSchema = z.strictObject({ content: contentInput.optional() });
export type ApproveProposalInput = z.input<typeof approveProposalInputSchema>;

export const rejectProposalInputSchema = z.strictObject({ reason: reasonInput.trim().min(1).optional() });
export type RejectProposalInput = z.input<typeof rejectProposalInputSchema>;

export const updateSettingsInputSchema = z.strictObject({ review: z.enum(REVIEW_MODES).optional() });
export type UpdateSettingsInput = z.input<typeof updateSettingsInputSchema>;

/** The words of a text as rules compare them: letters and digits, case- and width-folded. */
export function words(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

const term = z
  .string()
  .trim()
  .min(1, "a term is a word or a phrase")
  .max(LIMITS.ruleTermChars)
  .refine((value) => words(value).length > 0, "a term needs a letter or a digit");

export const createRuleInputSchema = z.strictObject({
  text: z.string().trim().min(1, "Write the rule.").max(LIMITS.ruleChars),
  terms: z.array(term).max(LIMITS.ruleTerms).optional(),
});
export type CreateRuleInput = z.input<typeof createRuleInputSchema>;

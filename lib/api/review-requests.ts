import { z } from "zod";
import {
  approveProposalInputSchema,
  createRuleInputSchema,
  instructionsJson,
  LIMITS,
  memoryJson,
  PROPOSAL_STATUSES,
  proposalJson,
  rejectProposalInputSchema,
  ruleJson,
  settingsJson,
  updateSettingsInputSchema,
} from "@/lib/memory/contract";

/**
 * Request and response shapes of review, rules and settings (docs/memory-model.md), built from the core's input
 * schemas.
 */
export const listProposalsQuery = z.strictObject({
  status: z.enum(PROPOSAL_STATUSES).optional(),
  threadId: z.string().min(1).max(LIMITS.idChars).optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.listPage).optional(),
  cursor: z.string().max(LIMITS.cursorChars).optional(),
});

export const approveProposalBody = approveProposalInputSchema;
export const rejectProposalBody = rejectProposalInputSchema;
export const createRuleBody = createRuleInputSchema;
export const updateSettingsBody = updateSettingsInputSchema.refine(
  (input) => input.review !== undefined,
  "send a setting to change (review)",
);

export const proposalListResponse = z.strictObject({
  proposals: z.array(proposalJson),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});
export const approvedResponse = z.union([
  z.strictObject({ proposal: proposalJson, memory: memoryJson }),
  z.strictObject({ proposal: proposalJson, instructions: instructionsJson }),
]);
export const proposalResponse = z.strictObject({ proposal: proposalJson });
export const ruleResponse = z.strictObject({ rule: ruleJson });
export const ruleListResponse = z.strictObject({ rules: z.array(ruleJson) });
export const settingsResponse = settingsJson;

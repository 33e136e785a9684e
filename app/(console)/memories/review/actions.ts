"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionAction } from "@/lib/api/session-action";
import { addRule, decideProposal, decideProposals, removeRule, setReviewMode } from "@/lib/console/review";
import type { ActionResult } from "@/lib/errors";
import type { MemoryContext } from "@/lib/memory/core";

/**
 * A review decision in the caller's own namespace, then a refresh of the console (the nav shows the count). The
 * decision checks its input against its own schema (lib/console/review.ts).
 */
function ownDecision<T extends object>(
  decide: (ctx: MemoryContext, input: unknown) => Promise<ActionResult<T>>,
  path = "/memories",
) {
  return sessionAction(z.unknown(), async (input, { memory }) => {
    const result = await decide(memory, input);
    if (result.ok) revalidatePath(path, "layout");
    return result;
  });
}

export const decideProposalAction = ownDecision(decideProposal);
export const decideProposalsAction = ownDecision(decideProposals);
export const addRuleAction = ownDecision(addRule);
export const removeRuleAction = ownDecision(removeRule);
export const setReviewModeAction = ownDecision(setReviewMode, "/settings");

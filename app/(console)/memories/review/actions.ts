"use server";

import { revalidatePath } from "next/cache";
import { addRule, decideProposal, decideProposals, removeRule, setReviewMode } from "@/lib/console/review";
import { type ActionResult, actionFailure } from "@/lib/errors";
import type { MemoryContext } from "@/lib/memory/core";
import { ownScope } from "../scope";

/** Runs a review decision in the caller's own namespace, then refreshes the console (the nav shows the count). */
async function own<T extends object>(
  work: (ctx: MemoryContext) => Promise<ActionResult<T>>,
  path = "/memories",
): Promise<ActionResult<T>> {
  let ctx: MemoryContext;
  try {
    ctx = (await ownScope()).ctx;
  } catch (error) {
    return actionFailure(error);
  }
  const result = await work(ctx);
  if (result.ok) revalidatePath(path, "layout");
  return result;
}

export async function decideProposalAction(input: unknown) {
  return own((ctx) => decideProposal(ctx, input));
}

export async function decideProposalsAction(input: unknown) {
  return own((ctx) => decideProposals(ctx, input));
}

export async function addRuleAction(input: unknown) {
  return own((ctx) => addRule(ctx, input));
}

export async function removeRuleAction(id: unknown) {
  return own((ctx) => removeRule(ctx, id));
}

export async function setReviewModeAction(mode: unknown) {
  return own((ctx) => setReviewMode(ctx, mode), "/settings");
}

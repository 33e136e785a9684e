"use server";

import { revalidatePath } from "next/cache";
import { revertInstructionsTo, saveInstructions } from "@/lib/console/instructions";
import { type ActionResult, actionFailure } from "@/lib/errors";
import type { MemoryContext } from "@/lib/memory/core";
import { ownScope } from "../scope";

/** Changes the caller's own instructions, then refreshes their page. */
async function ownInstructions<T extends object>(
  change: (ctx: MemoryContext) => Promise<ActionResult<T>>,
): Promise<ActionResult<T>> {
  let ctx: MemoryContext;
  try {
    ctx = (await ownScope()).ctx;
  } catch (error) {
    return actionFailure(error);
  }
  const result = await change(ctx);
  if (result.ok) revalidatePath("/memories/instructions");
  return result;
}

export async function saveInstructionsAction(input: unknown) {
  return ownInstructions((ctx) => saveInstructions(ctx, input));
}

export async function revertInstructionsAction(version: unknown) {
  return ownInstructions((ctx) => revertInstructionsTo(ctx, version));
}

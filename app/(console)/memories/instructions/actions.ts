"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionAction } from "@/lib/api/session-action";
import { revertInstructionsTo, saveInstructions } from "@/lib/console/instructions";
import type { ActionResult } from "@/lib/errors";
import type { MemoryContext } from "@/lib/memory/core";

/** Changes the caller's own instructions (checking its input, lib/console/instructions.ts), then refreshes their page. */
function ownInstructions<T extends object>(change: (ctx: MemoryContext, input: unknown) => Promise<ActionResult<T>>) {
  return sessionAction(z.unknown(), async (input, { memory }) => {
    const result = await change(memory, input);
    if (result.ok) revalidatePath("/memories/instructions");
    return result;
  });
}

export const saveInstructionsAction = ownInstructions(saveInstructions);
export const revertInstructionsAction = ownInstructions(revertInstructionsTo);

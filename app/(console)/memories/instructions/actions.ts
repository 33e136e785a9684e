"use server";

import { revalidatePath } from "next/cache";
import { revertInstructionsTo, saveInstructions } from "@/lib/console/instructions";
import { ownScope } from "../scope";

const SIGNED_OUT = {
  ok: false as const,
  error: { code: "unauthorized" as const, message: "Your session has ended; sign in again.", details: [] },
};

export async function saveInstructionsAction(input: unknown) {
  const scope = await ownScope();
  if (!scope) return SIGNED_OUT;
  const result = await saveInstructions(scope.ctx, input);
  if (result.ok) revalidatePath("/memories/instructions");
  return result;
}

export async function revertInstructionsAction(version: unknown) {
  const scope = await ownScope();
  if (!scope) return SIGNED_OUT;
  const result = await revertInstructionsTo(scope.ctx, version);
  if (result.ok) revalidatePath("/memories/instructions");
  return result;
}

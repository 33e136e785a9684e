import { z } from "zod";
import { type ActionResult, parseInput, settleAction } from "@/lib/errors";
import { LIMITS } from "@/lib/memory/contract";
import type { MemoryContext } from "@/lib/memory/core";
import { putInstructions, revertInstructions } from "@/lib/memory/procedural";

const saveInput = z.strictObject({
  text: z.string().max(LIMITS.instructionsChars),
  expectedVersion: z.number().int().min(0),
});

/** The console's edit form: a hand edit against the version the page showed (409 message when another came first). */
export function saveInstructions(ctx: MemoryContext, raw: unknown): Promise<ActionResult<{ version: number }>> {
  return settleAction(async () => {
    const input = parseInput(saveInput, raw);
    const saved = await putInstructions(ctx, { text: input.text, expectedVersion: input.expectedVersion });
    return { version: saved.version };
  });
}

/** Makes an earlier version current again, as a new version. */
export function revertInstructionsTo(ctx: MemoryContext, raw: unknown): Promise<ActionResult<{ version: number }>> {
  return settleAction(async () => {
    const version = parseInput(z.number().int().min(1), raw);
    return { version: (await revertInstructions(ctx, version)).version };
  });
}

"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionAction } from "@/lib/api/session-action";
import { importNamespace } from "@/lib/console/import";
import { bulkChangeStatus, changeMemoryStatus, editMemory, pinMemory, revertMemory } from "@/lib/console/mutations";
import type { MemoryContext } from "@/lib/memory/core";
import { startConsolidation } from "@/lib/server/consolidation";

/**
 * A mutation of the caller's own namespace (never one named by the request), then a refresh of the pages that show
 * it. The mutation checks its input against its own schema (lib/console), as the console's tests call it directly.
 */
function ownMutation<R extends { ok: boolean }>(mutate: (ctx: MemoryContext, input: unknown) => Promise<R>) {
  return sessionAction(z.unknown(), async (input, { memory }) => {
    const result = await mutate(memory, input);
    // Only after a write: revalidating re-renders the caller's page in the same round trip, which would replace a
    // conflict view with the newer version before the person has chosen.
    if (wrote(result)) revalidatePath("/memories", "layout");
    return result;
  });
}

function wrote(result: { ok: boolean }): boolean {
  const outcome = result as { ok: boolean; changed?: number; outcome?: string };
  return outcome.ok && outcome.changed !== 0 && outcome.outcome !== "planned";
}

export const editMemoryAction = ownMutation(editMemory);
export const changeStatusAction = ownMutation(changeMemoryStatus);
export const revertMemoryAction = ownMutation(revertMemory);
export const pinMemoryAction = ownMutation(pinMemory);
export const bulkStatusAction = ownMutation(bulkChangeStatus);
export const importAction = ownMutation(importNamespace);

/** "Tidy up now" on the console home: queues a consolidation run of the person's own memories. */
export const tidyUpAction = sessionAction(z.strictObject({}), async (_input, { memory }) => {
  const run = await startConsolidation(memory);
  return { runId: run.id };
});

"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionPrincipal } from "@/lib/api/caller";
import { type ActionResult, AppError, parseInput, settleAction } from "@/lib/errors";
import { failedRunThread, type RevertOutcome, revertRun } from "@/lib/memory/extraction";
import { getJobQueue } from "@/lib/server/jobs";
import { memoryContextFor } from "@/lib/server/memory-context";

/** Queues extraction again for the thread of one of the caller's failed runs; it reads every message not yet read. */
export async function retryRunAction(runId: unknown): Promise<ActionResult> {
  return settleAction(async () => {
    const principal = await actionPrincipal();
    const id = parseInput(z.uuid(), runId);
    const threadId = await failedRunThread(await memoryContextFor(principal, "console"), id);
    if (!threadId) throw new AppError("not_found", "Only a failed run of yours can be retried.");
    await (await getJobQueue()).enqueue({ userId: principal.userId, threadId }, 0);
    revalidatePath("/memories/runs");
    return {};
  });
}

/** Undoes what one of the caller's runs applied (see revertRun); memories changed since are skipped and named. */
export async function revertRunAction(runId: unknown): Promise<ActionResult<RevertOutcome>> {
  return settleAction(async () => {
    const principal = await actionPrincipal();
    const id = parseInput(z.uuid(), runId);
    const outcome = await revertRun(await memoryContextFor(principal, "console"), id);
    revalidatePath("/memories", "layout");
    return outcome;
  });
}

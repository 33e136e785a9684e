"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { sessionAction } from "@/lib/api/session-action";
import { AppError } from "@/lib/errors";
import { failedRunThread, revertRun } from "@/lib/memory/extraction";
import { getJobQueue } from "@/lib/server/jobs";

/** Queues extraction again for the thread of one of the caller's failed runs; it reads every message not yet read. */
export const retryRunAction = sessionAction(z.uuid(), async (id, { principal, memory }) => {
  const threadId = await failedRunThread(memory, id);
  if (!threadId) throw new AppError("not_found", "Only a failed run of yours can be retried.");
  await (await getJobQueue()).enqueue({ userId: principal.userId, threadId }, 0);
  revalidatePath("/memories/runs");
  return {};
});

/** Undoes what one of the caller's runs applied (see revertRun); memories changed since are skipped and named. */
export const revertRunAction = sessionAction(z.uuid(), async (id, { memory }) => {
  const outcome = await revertRun(memory, id);
  revalidatePath("/memories", "layout");
  return outcome;
});

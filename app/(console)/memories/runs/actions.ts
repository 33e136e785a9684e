"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memoryContextFor } from "@/lib/api/memory-context";
import { failedRunThread } from "@/lib/memory/extraction";
import { getExtractionQueue } from "@/lib/server/extraction";
import { requirePrincipal } from "../scope";

/** Queues extraction again for the thread of one of the caller's failed runs; it reads every message not yet read. */
export async function retryRunAction(runId: unknown): Promise<{ ok: boolean; error?: string }> {
  const parsed = z.uuid().safeParse(runId);
  if (!parsed.success) return { ok: false, error: "Run not found." };
  const principal = await requirePrincipal();
  const threadId = await failedRunThread(await memoryContextFor(principal), parsed.data);
  if (!threadId) return { ok: false, error: "Only a failed run of yours can be retried." };
  await (await getExtractionQueue()).enqueue({ userId: principal.userId, threadId }, 0);
  revalidatePath("/memories/runs");
  return { ok: true };
}

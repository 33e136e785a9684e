import { NextResponse } from "next/server";
import { memoryRoute } from "@/lib/api/handler";
import { AppError } from "@/lib/errors";
import { serializeRun, threadExtractionRuns } from "@/lib/memory/extraction";
import { pendingProposalCounts } from "@/lib/memory/review";
import { getJobQueue } from "@/lib/server/jobs";

const THREAD_ID = /^[\w-]{1,100}$/;

export const GET = memoryRoute<{ id: string }>(async ({ params, memory }) => {
  const found = THREAD_ID.test(params.id) ? await threadExtractionRuns(memory, params.id) : null;
  if (!found) throw new AppError("not_found", "No chat with that id.");
  return NextResponse.json({
    threadId: params.id,
    extractedThrough: found.extractedThrough,
    runs: found.runs.map(serializeRun),
    truncated: found.truncated,
    pendingProposals: await pendingProposalCounts(memory, params.id),
  });
});

/** Runs extraction for the thread now, e.g. after a failed run: it reads every message after the cursor. */
export const POST = memoryRoute<{ id: string }>(async ({ params, memory, principal }) => {
  const found = THREAD_ID.test(params.id) ? await threadExtractionRuns(memory, params.id, 1) : null;
  if (!found) throw new AppError("not_found", "No chat with that id.");
  const queue = await getJobQueue();
  await queue.enqueue({ userId: principal.userId, threadId: params.id }, 0);
  return NextResponse.json({ threadId: params.id, queued: true }, { status: 202 });
});

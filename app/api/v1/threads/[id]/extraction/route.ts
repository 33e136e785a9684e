import { NextResponse } from "next/server";
import { ApiError } from "@/lib/api/errors";
import { memoryRoute } from "@/lib/api/handler";
import { serializeRun, threadExtractionRuns } from "@/lib/memory/extraction/runs";

export const GET = memoryRoute<{ id: string }>(async ({ params, memory }) => {
  const found = /^[\w-]{1,100}$/.test(params.id) ? await threadExtractionRuns(memory, params.id) : null;
  if (!found) throw new ApiError("not_found", "No chat with that id.");
  return NextResponse.json({
    threadId: params.id,
    extractedThrough: found.extractedThrough,
    runs: found.runs.map(serializeRun),
  });
});

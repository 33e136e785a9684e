import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { revertConsolidationRun } from "@/lib/memory/consolidation";

export const dynamic = "force-dynamic";

/** Undoes what the run applied; a second revert, or one of a run still queued or running, is a 409. */
export const POST = memoryRoute<{ id: string }>(async ({ request, params, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json(await revertConsolidationRun(memory, params.id));
});

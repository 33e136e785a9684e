import { NextResponse } from "next/server";
import { queryParams, readJsonBody } from "@/lib/api/body";
import { listConsolidationRunsQuery, startConsolidationBody } from "@/lib/api/consolidation-requests";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { listConsolidationRuns, serializeConsolidationRun } from "@/lib/memory/consolidation";
import { startConsolidation } from "@/lib/server/consolidation";

export const dynamic = "force-dynamic";

/** Queues a consolidation run for the caller ("Tidy up now"). */
export const POST = memoryRoute(async ({ request, memory }) => {
  parseInput(noQuery, queryParams(request));
  parseInput(startConsolidationBody, await readJsonBody(request));
  const run = await startConsolidation(memory);
  return NextResponse.json({ run: serializeConsolidationRun(run) }, { status: 202 });
});

/** The caller's consolidation runs, newest first; keyset-paged. */
export const GET = memoryRoute(async ({ request, memory }) => {
  const query = parseInput(listConsolidationRunsQuery, queryParams(request));
  const page = await listConsolidationRuns(memory, query);
  return NextResponse.json({ runs: page.runs.map(serializeConsolidationRun), nextCursor: page.nextCursor });
});

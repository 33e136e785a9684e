import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { getConsolidationRun, serializeConsolidationRun } from "@/lib/memory/consolidation";

export const dynamic = "force-dynamic";

export const GET = memoryRoute<{ id: string }>(async ({ request, params, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json({ run: serializeConsolidationRun(await getConsolidationRun(memory, params.id)) });
});

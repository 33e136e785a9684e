import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { memoryHealth } from "@/lib/memory/consolidation";

export const dynamic = "force-dynamic";

/** How clean the caller's memory is, counted by the consolidation pass's own candidate finder. */
export const GET = memoryRoute(async ({ request, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json(await memoryHealth(memory));
});

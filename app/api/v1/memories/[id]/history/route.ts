import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { memoryHistory, serializeVersion } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

export const GET = memoryRoute<{ id: string }>(async ({ request, params, memory }) => {
  parseInput(noQuery, queryParams(request));
  const versions = await memoryHistory(memory, params.id);
  return NextResponse.json({ versions: versions.map(serializeVersion) });
});

import { NextResponse } from "next/server";
import { parseRequest, queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { memoryHistory, serializeVersion } from "@/lib/memory";

export const dynamic = "force-dynamic";

export const GET = memoryRoute<{ id: string }>(async ({ request, params, memory }) => {
  parseRequest(noQuery, queryParams(request));
  const versions = await memoryHistory(memory, params.id);
  return NextResponse.json({ versions: versions.map(serializeVersion) });
});

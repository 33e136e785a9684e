import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { restoreMemory, serializeMemory } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

export const POST = memoryRoute<{ id: string }>(async ({ request, params, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json({ memory: serializeMemory(await restoreMemory(memory, params.id)) });
});

import { NextResponse } from "next/server";
import { readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { searchMemoriesBody } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { searchMemories } from "@/lib/memory/search";
import { serializeSearchResult } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

export const POST = memoryRoute(
  async ({ request, memory }) => {
    const { filter, ...body } = parseInput(searchMemoriesBody, await readJsonBody(request));
    const results = await searchMemories(memory, { ...body, metadata: filter });
    return NextResponse.json({ results: results.map(serializeSearchResult) });
  },
  { scope: "read" },
);

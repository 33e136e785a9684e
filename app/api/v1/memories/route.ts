import { NextResponse } from "next/server";
import { queryParams, readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { createMemoryBody, listMemoriesQuery } from "@/lib/api/memory-requests";
import { AppError, parseInput } from "@/lib/errors";
import { parseDottedNamespace } from "@/lib/memory/contract";
import { searchMemories } from "@/lib/memory/search";
import { createMemory, listMemories, serializeMemory } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

export const POST = memoryRoute(async ({ request, memory }) => {
  const body = parseInput(createMemoryBody, await readJsonBody(request));
  const created = await createMemory(memory, body);
  return NextResponse.json({ memory: serializeMemory(created) }, { status: 201 });
});

/** Newest first with a cursor; with `q`, the best matches instead (one page, no cursor). */
export const GET = memoryRoute(async ({ request, memory }) => {
  const query = parseInput(listMemoriesQuery, queryParams(request));
  const filters = {
    kind: query.kind,
    status: query.status,
    namespace: parseDottedNamespace(query.namespace),
    pinned: query.pinned === undefined ? undefined : query.pinned === "true",
    asOf: query.asOf,
  };
  if (query.q !== undefined) {
    if (query.cursor) throw new AppError("unprocessable", "cursor cannot be combined with q.");
    const results = await searchMemories(memory, {
      ...filters,
      query: query.q,
      limit: query.limit,
      minConfidence: query.minConfidence,
    });
    return NextResponse.json({ memories: results.map((result) => serializeMemory(result.memory)), nextCursor: null });
  }
  const page = await listMemories(memory, { ...filters, limit: query.limit, cursor: query.cursor });
  return NextResponse.json({ memories: page.memories.map(serializeMemory), nextCursor: page.nextCursor });
});

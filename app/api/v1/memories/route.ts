import { NextResponse } from "next/server";
import { parseRequest, queryParams, readJsonBody } from "@/lib/api/body";
import { ApiError } from "@/lib/api/errors";
import { memoryRoute } from "@/lib/api/handler";
import { createMemoryBody, listMemoriesQuery } from "@/lib/api/memory-requests";
import { createMemory, listMemories, parseDottedNamespace, searchMemories, serializeMemory } from "@/lib/memory";

export const dynamic = "force-dynamic";

export const POST = memoryRoute(async ({ request, memory }) => {
  const body = parseRequest(createMemoryBody, await readJsonBody(request));
  const created = await createMemory(memory, body);
  return NextResponse.json({ memory: serializeMemory(created) }, { status: 201 });
});

/** Newest first with a cursor; with `q`, the best matches instead (one page, no cursor). */
export const GET = memoryRoute(async ({ request, memory }) => {
  const query = parseRequest(listMemoriesQuery, queryParams(request));
  const filters = { kind: query.kind, status: query.status, namespace: parseDottedNamespace(query.namespace) };
  if (query.q !== undefined) {
    if (query.cursor) throw new ApiError("unprocessable", "cursor cannot be combined with q.");
    const results = await searchMemories(memory, { ...filters, query: query.q, limit: query.limit });
    return NextResponse.json({ memories: results.map((result) => serializeMemory(result.memory)), nextCursor: null });
  }
  const page = await listMemories(memory, { ...filters, limit: query.limit, cursor: query.cursor });
  return NextResponse.json({ memories: page.memories.map(serializeMemory), nextCursor: page.nextCursor });
});

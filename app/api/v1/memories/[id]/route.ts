import { NextResponse } from "next/server";
import { queryParams, readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { deleteMemoryQuery, noQuery, updateMemoryBody } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { deleteMemory, getMemory, purgeMemory, serializeMemory, updateMemory } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = memoryRoute<Params>(async ({ request, params, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json({ memory: serializeMemory(await getMemory(memory, params.id)) });
});

export const PATCH = memoryRoute<Params>(async ({ request, params, memory }) => {
  const body = parseInput(updateMemoryBody, await readJsonBody(request));
  return NextResponse.json({ memory: serializeMemory(await updateMemory(memory, params.id, body)) });
});

/** Soft delete (a tombstone); `?purge=true` erases the content everywhere instead. */
export const DELETE = memoryRoute<Params>(async ({ request, params, memory }) => {
  const { purge } = parseInput(deleteMemoryQuery, queryParams(request));
  const removed = purge === "true" ? await purgeMemory(memory, params.id) : await deleteMemory(memory, params.id);
  return NextResponse.json({ memory: serializeMemory(removed) });
});

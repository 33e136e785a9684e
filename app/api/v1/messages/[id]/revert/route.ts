import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { undoTurn } from "@/lib/chat/undo-turn";
import { parseInput } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Undoes the memory changes of the chat turn this answer ended; a second undo is a 409. */
export const POST = memoryRoute<{ id: string }>(async ({ request, params, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json(await undoTurn(memory, params.id));
});

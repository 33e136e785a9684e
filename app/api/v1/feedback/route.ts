import { NextResponse } from "next/server";
import { queryParams, readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { createFeedbackBody } from "@/lib/api/procedural-requests";
import { parseInput } from "@/lib/errors";
import { createFeedback, serializeFeedback } from "@/lib/memory/procedural";

export const dynamic = "force-dynamic";

/** Rates one of the caller's assistant answers; the optimizer reads it in its next pass. */
export const POST = memoryRoute(async ({ request, memory }) => {
  parseInput(noQuery, queryParams(request));
  const body = parseInput(createFeedbackBody, await readJsonBody(request));
  return NextResponse.json({ feedback: serializeFeedback(await createFeedback(memory, body)) }, { status: 201 });
});

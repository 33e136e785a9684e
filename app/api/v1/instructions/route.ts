import { NextResponse } from "next/server";
import { queryParams, readJsonBody } from "@/lib/api/body";
import { requireSession } from "@/lib/api/caller";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { putInstructionsBody } from "@/lib/api/procedural-requests";
import { parseInput } from "@/lib/errors";
import type { MemoryContext } from "@/lib/memory/core";
import {
  instructionHistory,
  putInstructions,
  serializeInstructions,
  serializeInstructionVersion,
} from "@/lib/memory/procedural";

export const dynamic = "force-dynamic";

async function state(memory: MemoryContext) {
  const versions = await instructionHistory(memory);
  return {
    instructions: versions[0] ? serializeInstructions(versions[0]) : null,
    versions: versions.map(serializeInstructionVersion),
  };
}

export const GET = memoryRoute(async ({ request, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json(await state(memory));
});

/** A hand edit; 409 when `expectedVersion` is not the current version. */
export const PUT = memoryRoute(async ({ request, caller, memory }) => {
  // The text goes into every chat turn's system prompt: an agent's key must not write its own instructions.
  requireSession(caller, "change instructions");
  parseInput(noQuery, queryParams(request));
  const body = parseInput(putInstructionsBody, await readJsonBody(request));
  await putInstructions(memory, body);
  return NextResponse.json(await state(memory));
});

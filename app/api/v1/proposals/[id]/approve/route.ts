import { NextResponse } from "next/server";
import { queryParams, readOptionalJsonBody } from "@/lib/api/body";
import { requireSession } from "@/lib/api/caller";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { approveProposalBody } from "@/lib/api/review-requests";
import { parseInput } from "@/lib/errors";
import { serializeInstructions } from "@/lib/memory/procedural";
import { approveProposal, serializeProposal } from "@/lib/memory/review";
import { serializeMemory } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

/** Applies the proposal (as edited, with `content`); 409 with what stands now when the memory changed since. */
export const POST = memoryRoute<{ id: string }>(async ({ request, params, caller, memory }) => {
  // Review is the person's word: a key, which an agent may hold, could otherwise approve its own proposals.
  requireSession(caller, "approve proposals");
  parseInput(noQuery, queryParams(request));
  const body = parseInput(approveProposalBody, await readOptionalJsonBody(request));
  const approved = await approveProposal(memory, params.id, body);
  const proposal = serializeProposal(approved.proposal);
  if ("instructions" in approved) {
    return NextResponse.json({ proposal, instructions: serializeInstructions(approved.instructions) });
  }
  return NextResponse.json({ proposal, memory: serializeMemory(approved.memory) });
});

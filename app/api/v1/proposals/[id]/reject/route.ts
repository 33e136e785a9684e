import { NextResponse } from "next/server";
import { queryParams, readOptionalJsonBody } from "@/lib/api/body";
import { requireSession } from "@/lib/api/caller";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { rejectProposalBody } from "@/lib/api/review-requests";
import { parseInput } from "@/lib/errors";
import { rejectProposal, serializeProposal } from "@/lib/memory/review";

export const dynamic = "force-dynamic";

/** Rejects the proposal; a rejected insert suppresses the same fact in later extraction runs. */
export const POST = memoryRoute<{ id: string }>(async ({ request, params, caller, memory }) => {
  requireSession(caller, "reject proposals");
  parseInput(noQuery, queryParams(request));
  const body = parseInput(rejectProposalBody, await readOptionalJsonBody(request));
  return NextResponse.json({ proposal: serializeProposal(await rejectProposal(memory, params.id, body)) });
});

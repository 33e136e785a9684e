import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { listProposalsQuery } from "@/lib/api/review-requests";
import { parseInput } from "@/lib/errors";
import { listProposals, serializeProposal } from "@/lib/memory/review";

export const dynamic = "force-dynamic";

/** The caller's proposals, newest first, optionally of one status; keyset-paged. */
export const GET = memoryRoute(async ({ request, memory }) => {
  const query = parseInput(listProposalsQuery, queryParams(request));
  const page = await listProposals(memory, query);
  return NextResponse.json({ proposals: page.proposals.map(serializeProposal), nextCursor: page.nextCursor });
});

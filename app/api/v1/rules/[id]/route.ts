import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { requireSession } from "@/lib/api/caller";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { parseInput } from "@/lib/errors";
import { deleteRule, serializeRule } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

/** Another user's rule id is a 404, like an unknown one. */
export const DELETE = memoryRoute<{ id: string }>(async ({ request, params, caller, memory }) => {
  // A rule restrains the models and the apps holding keys; lifting one is the person's decision.
  requireSession(caller, "delete rules");
  parseInput(noQuery, queryParams(request));
  return NextResponse.json({ rule: serializeRule(await deleteRule(memory, params.id)) });
});

import { NextResponse } from "next/server";
import { queryParams, readJsonBody } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { createRuleBody } from "@/lib/api/review-requests";
import { parseInput } from "@/lib/errors";
import { createRule, listRules, serializeRule } from "@/lib/memory/store";

export const dynamic = "force-dynamic";

export const GET = memoryRoute(async ({ request, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json({ rules: (await listRules(memory)).map(serializeRule) });
});

/** A new rule binds at once: the next chat turn and extraction run are shown it, and writes naming its terms fail. */
export const POST = memoryRoute(async ({ request, memory }) => {
  parseInput(noQuery, queryParams(request));
  const body = parseInput(createRuleBody, await readJsonBody(request));
  return NextResponse.json({ rule: serializeRule(await createRule(memory, body)) }, { status: 201 });
});

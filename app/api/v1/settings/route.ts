import { NextResponse } from "next/server";
import { queryParams, readJsonBody } from "@/lib/api/body";
import { requireSession } from "@/lib/api/caller";
import { memoryRoute } from "@/lib/api/handler";
import { noQuery } from "@/lib/api/memory-requests";
import { updateSettingsBody } from "@/lib/api/review-requests";
import { parseInput } from "@/lib/errors";
import { getSettings, updateSettings } from "@/lib/memory/review";

export const dynamic = "force-dynamic";

export const GET = memoryRoute(async ({ request, memory }) => {
  parseInput(noQuery, queryParams(request));
  return NextResponse.json(await getSettings(memory));
});

export const PATCH = memoryRoute(async ({ request, caller, memory }) => {
  // Turning review off through a key would let an agent lift the check on itself.
  requireSession(caller, "change settings");
  parseInput(noQuery, queryParams(request));
  const body = parseInput(updateSettingsBody, await readJsonBody(request));
  return NextResponse.json(await updateSettings(memory, body));
});

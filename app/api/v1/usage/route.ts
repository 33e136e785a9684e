import { NextResponse } from "next/server";
import { queryParams } from "@/lib/api/body";
import { memoryRoute } from "@/lib/api/handler";
import { usageQuery, usageRange } from "@/lib/api/usage-requests";
import { config } from "@/lib/config";
import { parseInput } from "@/lib/errors";
import { dailyUsage, spentOnDay } from "@/lib/memory/usage";

export const dynamic = "force-dynamic";

/** The caller's model usage and cost per UTC day, and where today stands against the daily budget. */
export const GET = memoryRoute(async ({ request, memory }) => {
  const now = memory.clock();
  const range = usageRange(parseInput(usageQuery, queryParams(request)), now);
  const days = await dailyUsage(memory, range);
  const spentToday = await spentOnDay(memory, now);
  const budget = config().EXTRACTION_DAILY_BUDGET_USD ?? null;
  return NextResponse.json({
    ...range,
    days,
    budget: {
      dailyUsd: budget,
      spentTodayUsd: spentToday,
      reached: budget !== null && spentToday >= budget,
    },
  });
});

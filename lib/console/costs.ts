import { and, count, eq, gte, lt } from "drizzle-orm";
import { extractionRuns } from "@/lib/db/schema";
import { asUser, type UserBinding } from "@/lib/db/unit-of-work";
import { type DayUsage, dailyUsage, spentOnDay, utcDay } from "@/lib/memory/usage";

export interface BudgetStatus {
  /** The daily budget in USD; null when none is set. */
  dailyUsd: number | null;
  spentTodayUsd: number;
  /** Background extraction is stopped until the next UTC day. */
  reached: boolean;
  /** Runs skipped today because of it. */
  skippedToday: number;
}

/** Where the user's spend today (UTC) stands against the daily budget, and how many runs it has stopped today. */
export async function loadBudgetStatus(
  binding: UserBinding,
  dailyUsd: number | undefined,
  now: Date,
): Promise<BudgetStatus> {
  const { start, end } = utcDay(now);
  const spentTodayUsd = await spentOnDay(binding, now);
  const [skipped] = await asUser(binding, ({ db }) =>
    db
      .select({ runs: count() })
      .from(extractionRuns)
      .where(
        and(
          eq(extractionRuns.userId, binding.principal.userId),
          eq(extractionRuns.status, "skipped"),
          gte(extractionRuns.createdAt, start),
          lt(extractionRuns.createdAt, end),
        ),
      ),
  );
  return {
    dailyUsd: dailyUsd ?? null,
    spentTodayUsd,
    reached: dailyUsd !== undefined && spentTodayUsd >= dailyUsd,
    skippedToday: Number(skipped?.runs ?? 0),
  };
}

/** Usage per UTC day over the last `days` days ending today, newest first; days without a call are left out. */
export async function loadUsageDays(binding: UserBinding, now: Date, days = 30): Promise<DayUsage[]> {
  const today = utcDay(now).start;
  const from = new Date(today.getTime() - (days - 1) * 86_400_000);
  const range = { from: from.toISOString().slice(0, 10), to: today.toISOString().slice(0, 10) };
  return (await dailyUsage(binding, range)).reverse();
}

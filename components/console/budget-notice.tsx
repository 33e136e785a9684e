import Link from "next/link";
import type { BudgetStatus } from "@/lib/console/costs";
import { formatUsd } from "./format";

/** Says plainly that background extraction is stopped for today, and why; nothing while it runs. */
export function BudgetNotice({ status }: { status: BudgetStatus }) {
  if (!status.reached || status.dailyUsd === null) return null;
  const skipped =
    status.skippedToday > 0
      ? ` ${status.skippedToday} extraction ${status.skippedToday === 1 ? "run was" : "runs were"} skipped today.`
      : "";
  return (
    <div
      role="status"
      data-testid="budget-notice"
      className="rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm"
    >
      <strong className="font-medium">Background extraction is paused until tomorrow (UTC).</strong> Today's model spend
      of {formatUsd(status.spentTodayUsd)} reached the daily budget of {formatUsd(status.dailyUsd)}{" "}
      (EXTRACTION_DAILY_BUDGET_USD).{skipped} New messages are kept and read by the first run after the budget resets.{" "}
      <Link href="/memories/usage" className="underline underline-offset-2">
        See usage
      </Link>
    </div>
  );
}

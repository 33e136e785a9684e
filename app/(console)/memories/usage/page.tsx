import { Coins } from "lucide-react";
import type { Metadata } from "next";
import { BudgetNotice } from "@/components/console/budget-notice";
import { formatCount, formatUsd } from "@/components/console/format";
import { EmptyState } from "@/components/shell/empty-state";
import { config } from "@/lib/config";
import { loadBudgetStatus, loadUsageDays } from "@/lib/console/costs";
import { getDatabase } from "@/lib/db";
import type { UsageTotals } from "@/lib/memory/usage";
import { requirePrincipal } from "../scope";

export const metadata: Metadata = { title: "Usage & cost" };

const DAYS = 30;

function cost(totals: UsageTotals): string {
  const known = formatUsd(totals.costUsd);
  return totals.unpricedCalls > 0 ? `${known} + ${totals.unpricedCalls} unpriced` : known;
}

function Cell({ totals }: { totals: UsageTotals }) {
  if (totals.calls === 0) return <td className="px-3 py-2 text-muted-foreground">—</td>;
  return (
    <td className="px-3 py-2">
      <div>{cost(totals)}</div>
      <div className="text-muted-foreground text-xs">
        {formatCount(totals.inputTokens)} in / {formatCount(totals.outputTokens)} out · {totals.calls}{" "}
        {totals.calls === 1 ? "call" : "calls"}
      </div>
    </td>
  );
}

/** What the models cost the signed-in user, per UTC day, from the cost ledger. */
export default async function UsagePage() {
  const principal = await requirePrincipal();
  const binding = { database: await getDatabase(), principal };
  const now = new Date();
  const budget = await loadBudgetStatus(binding, config().EXTRACTION_DAILY_BUDGET_USD, now);
  const days = await loadUsageDays(binding, now, DAYS);
  return (
    <div className="space-y-4">
      <h1 className="font-semibold text-2xl tracking-tight">Usage & cost</h1>
      <p className="text-muted-foreground text-sm">
        Tokens and cost of every chat turn and background extraction run over the last {DAYS} days (UTC), priced from
        the server's price table. Calls of a model without a price are counted as unpriced.
        {budget.dailyUsd === null
          ? " No daily budget is set."
          : ` Daily budget: ${formatUsd(budget.dailyUsd)}, spent today: ${formatUsd(budget.spentTodayUsd)}.`}
      </p>
      <BudgetNotice status={budget} />
      {days.length === 0 ? (
        <EmptyState icon={Coins} title="No model usage yet">
          Each chat turn and extraction run is recorded here with its tokens and cost.
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-xl border bg-card">
          <table className="w-full text-left text-sm" data-testid="usage-table">
            <thead className="border-b text-muted-foreground text-xs">
              <tr>
                <th className="px-3 py-2 font-medium">Day (UTC)</th>
                <th className="px-3 py-2 font-medium">Total</th>
                <th className="px-3 py-2 font-medium">Chat</th>
                <th className="px-3 py-2 font-medium">Extraction</th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {days.map((day) => (
                <tr key={day.date} data-testid="usage-day">
                  <td className="px-3 py-2 font-medium">{day.date}</td>
                  <Cell totals={day} />
                  <Cell totals={day.byKind.chat} />
                  <Cell totals={day.byKind.extraction} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

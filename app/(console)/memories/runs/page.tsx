import { Workflow } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { BudgetNotice } from "@/components/console/budget-notice";
import { formatDateTime } from "@/components/console/format";
import { RunCard } from "@/components/console/run-card";
import { EmptyState } from "@/components/shell/empty-state";
import { Button } from "@/components/ui/button";
import { config } from "@/lib/config";
import { loadBudgetStatus } from "@/lib/console/costs";
import { listExtractionRuns } from "@/lib/console/runs";
import { getDatabase } from "@/lib/db";
import { LIMITS } from "@/lib/memory/contract";
import { requirePrincipal } from "../scope";

export const metadata: Metadata = { title: "Extraction runs" };

const STATUSES = ["queued", "running", "succeeded", "failed", "skipped"] as const;
const searchSchema = z.object({
  status: z.enum(STATUSES).optional().catch(undefined),
  cursor: z.string().max(LIMITS.cursorChars).optional().catch(undefined),
});

export default async function RunsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const principal = await requirePrincipal();
  const { status, cursor } = searchSchema.parse(await searchParams);
  const binding = { database: await getDatabase(), principal };
  const { runs, nextCursor } = await listExtractionRuns(binding, { status, cursor });
  const budget = await loadBudgetStatus(binding, config().EXTRACTION_DAILY_BUDGET_USD, new Date());
  const href = (changes: Record<string, string | undefined>) => {
    const merged: Record<string, string | undefined> = { status, ...changes };
    const params = new URLSearchParams(
      Object.entries(merged).filter((entry): entry is [string, string] => Boolean(entry[1])),
    );
    return params.size ? `/memories/runs?${params}` : "/memories/runs";
  };
  return (
    <div className="space-y-4">
      <h1 className="font-semibold text-2xl tracking-tight">Extraction runs</h1>
      <p className="text-muted-foreground text-sm">
        After each exchange, a background pass reads the new messages and proposes memories to add, change or remove.
        Each run lists what it proposed, what it applied and what it rejected, with the reason, and what its model calls
        cost.
      </p>
      <BudgetNotice status={budget} />
      <nav aria-label="Filter by status" className="flex flex-wrap gap-1">
        {[undefined, ...STATUSES].map((value) => (
          <Link
            key={value ?? "all"}
            href={href({ status: value, cursor: undefined })}
            aria-current={status === value ? "page" : undefined}
            className="rounded-full border px-3 py-1 text-sm aria-[current=page]:bg-muted aria-[current=page]:font-medium"
          >
            {value ?? "All"}
          </Link>
        ))}
      </nav>
      {runs.length === 0 ? (
        <EmptyState icon={Workflow} title={status ? `No ${status} runs` : "No extraction runs yet"}>
          {status
            ? "Nothing with this status."
            : "Runs appear here once background extraction has read one of your chats."}
        </EmptyState>
      ) : (
        <ul className="space-y-3" data-testid="run-list">
          {runs.map((run) => (
            <li key={run.id}>
              <RunCard run={run} finished={run.finishedAt ? formatDateTime(run.finishedAt) : null} />
            </li>
          ))}
        </ul>
      )}
      {nextCursor ? (
        <Button asChild variant="outline" size="sm">
          <Link href={href({ cursor: nextCursor })}>Older runs</Link>
        </Button>
      ) : null}
    </div>
  );
}

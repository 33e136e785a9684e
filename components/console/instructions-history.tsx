"use client";

import { RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { revertInstructionsAction } from "@/app/(console)/memories/instructions/actions";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "./format";
import { WordDiff } from "./word-diff";

export interface InstructionVersionRow {
  version: number;
  text: string;
  changedBy: { type: "user" | "optimizer"; id: string };
  reason: string;
  feedbackCount: number;
  runId: string | null;
  createdAt: string;
}

export interface OptimizerRunRow {
  id: string;
  status: string;
  outcome: string | null;
  feedbackCount: number;
  rejected: string[];
  error: string | null;
  tokens: number | null;
  createdAt: string;
}

/** Every version with a word diff against the one before, who changed it and why, and a revert button. */
export function InstructionsHistory({
  versions,
  runs,
  moreRuns,
  readOnly,
}: {
  versions: InstructionVersionRow[];
  /** The latest optimizer runs; `moreRuns` when older ones are not shown. */
  runs: OptimizerRunRow[];
  moreRuns: boolean;
  readOnly: boolean;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const revert = (version: number) =>
    startTransition(async () => {
      const result = await revertInstructionsAction(version);
      if (!result.ok) setError(result.error.message);
      else {
        setError(null);
        router.refresh();
      }
    });
  return (
    <div className="space-y-4">
      <section aria-labelledby="instructions-history" className="space-y-2">
        <h2 id="instructions-history" className="font-medium text-sm">
          History
        </h2>
        {versions.length === 0 ? <p className="text-muted-foreground text-sm">No versions yet.</p> : null}
        {error ? (
          <p className="text-destructive text-xs" role="alert">
            {error}
          </p>
        ) : null}
        <ol className="space-y-2">
          {versions.map((row, index) => (
            <li key={row.version} className="space-y-1 rounded-lg border p-3" data-testid="instruction-version">
              <div className="flex flex-wrap items-center gap-2 text-xs">
                <span className="font-medium text-sm">Version {row.version}</span>
                <span className="text-muted-foreground">
                  {formatDateTime(row.createdAt)} ·{" "}
                  {row.changedBy.type === "user"
                    ? "by you"
                    : `by the optimizer (${row.changedBy.id}), from ${row.feedbackCount} feedback`}
                </span>
              </div>
              <WordDiff before={versions[index + 1]?.text ?? ""} after={row.text} />
              <p className="text-muted-foreground text-xs">Why: {row.reason}</p>
              {!readOnly && index > 0 ? (
                <Button size="sm" variant="outline" disabled={pending} onClick={() => revert(row.version)}>
                  <RotateCcw className="size-3.5" aria-hidden /> Revert to version {row.version}
                </Button>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
      {runs.length > 0 ? (
        <section aria-labelledby="optimizer-runs" className="space-y-2">
          <h2 id="optimizer-runs" className="font-medium text-sm">
            Optimizer runs
          </h2>
          <ul className="space-y-1 text-xs">
            {runs.map((run) => (
              <li key={run.id} data-testid="optimizer-run">
                {formatDateTime(run.createdAt)} · {run.status}
                {run.outcome ? ` · ${run.outcome}` : ""} · read {run.feedbackCount} feedback
                {run.tokens !== null ? ` · ${run.tokens} tokens` : ""}
                {run.rejected.length > 0 ? ` · rejected: ${run.rejected.join("; ")}` : ""}
                {run.error ? ` · ${run.error}` : ""}
              </li>
            ))}
          </ul>
          {moreRuns ? (
            <p className="text-muted-foreground text-xs">
              Showing the latest {runs.length} runs; older ones are not listed.
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

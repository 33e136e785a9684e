import Link from "next/link";
import type { OpLine, RunView } from "@/lib/console/runs";
import { cn } from "@/lib/utils";
import { Badge } from "./badges";
import { formatDateTime, formatUsd } from "./format";
import { RetryRunButton } from "./retry-run-button";
import { RevertRunButton } from "./revert-run-button";

const STATUS_STYLE: Record<RunView["status"], string> = {
  queued: "text-muted-foreground",
  running: "border-primary/40 text-primary",
  succeeded: "border-primary/30 bg-accent text-accent-foreground",
  failed: "border-destructive/40 bg-destructive/10 text-destructive",
  skipped: "border-amber-500/40 bg-amber-500/10 text-amber-700 dark:text-amber-300",
};

export function RunCard({ run, finished }: { run: RunView; finished: string | null }) {
  return (
    <article
      className="space-y-3 rounded-xl border bg-card p-4"
      data-testid="run-card"
      aria-label={`Extraction run ${run.id}`}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge className={cn(STATUS_STYLE[run.status])}>{run.status}</Badge>
        <Link href={`/chat/${run.threadId}`} className="font-medium hover:underline">
          {run.threadTitle ?? "Untitled chat"}
        </Link>
        <span className="text-muted-foreground">
          messages {run.messages.from + 1}–{run.messages.through} · {formatDateTime(run.createdAt)}
          {finished ? ` · finished ${finished}` : ""} · attempt {run.attempts}
          {run.model ? ` · ${run.model}` : ""}
          {run.tokens.input !== null ? ` · ${run.tokens.input} in / ${run.tokens.output ?? 0} out tokens` : ""}
          {run.costUsd !== null ? ` · ${formatUsd(run.costUsd)}` : ""}
        </span>
      </div>
      {run.error && run.status === "skipped" ? (
        <p role="status" className="rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
          Skipped: {run.error}
        </p>
      ) : run.error ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-destructive text-sm"
        >
          {run.error}
        </p>
      ) : null}
      {run.status === "failed" ? <RetryRunButton runId={run.id} /> : null}
      {run.revertedAt ? (
        <p role="status" className="text-muted-foreground text-sm" data-testid="run-reverted">
          Reverted {formatDateTime(run.revertedAt)}: its changes were undone (see each memory's history).
        </p>
      ) : run.status === "succeeded" && run.applied.length > 0 ? (
        <RevertRunButton runId={run.id} />
      ) : null}
      <div className="grid gap-3 md:grid-cols-3">
        <OpList title="Proposed" ops={run.proposed} />
        <OpList title="Applied" ops={run.applied} />
        <OpList title="Rejected" ops={run.rejected} />
      </div>
    </article>
  );
}

function OpList({ title, ops }: { title: string; ops: OpLine[] }) {
  return (
    <section className="space-y-1 text-sm">
      <h3 className="font-medium">
        {title} ({ops.length})
      </h3>
      {ops.length === 0 ? (
        <p className="text-muted-foreground text-xs">None</p>
      ) : (
        <ul className="space-y-1.5">
          {ops.map((op, index) => (
            <li key={index} className="rounded-md bg-muted/60 px-2 py-1">
              <span className="font-mono text-xs uppercase">{op.op}</span>{" "}
              {op.memoryId ? (
                <Link href={`/memories/${op.memoryId}`} className="hover:underline">
                  {op.text || op.memoryId}
                </Link>
              ) : (
                op.text
              )}
              {op.reason ? <div className="text-muted-foreground text-xs">Reason: {op.reason}</div> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

"use client";

import { LoaderCircle, RotateCcw } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useState } from "react";

interface AppliedOp {
  op: "insert" | "update" | "delete";
  memoryId: string;
  text: string;
}

interface RunSummary {
  id: string;
  status: "queued" | "running" | "succeeded" | "failed";
  messages: { from: number; through: number };
  opsApplied: AppliedOp[];
}

interface PendingCount {
  runId: string | null;
  messageId: string | null;
  count: number;
}

const POLL_MS = 1_500;
const GIVE_UP_MS = 90_000;
const LABEL = { insert: "saved", update: "updated", delete: "deleted" } as const;

/**
 * What background extraction made of the conversation so far: "Saving memories…" until a run has read every message,
 * then what it saved, updated or deleted (with links), or a failure with a retry.
 */
export function ExtractionStatus({ threadId, messageCount }: { threadId: string; messageCount: number }) {
  const [state, setState] = useState<{
    extractedThrough: number;
    runs: RunSummary[];
    pendingProposals?: PendingCount[];
  } | null>(null);
  const [gaveUp, setGaveUp] = useState(false);

  const load = useCallback(async () => {
    const response = await fetch(`/api/v1/threads/${threadId}/extraction`, { cache: "no-store" });
    if (response.ok) setState(await response.json());
  }, [threadId]);

  const latest = state?.runs[0];
  const done = state !== null && state.extractedThrough >= messageCount;
  const failed = !done && latest?.status === "failed";

  useEffect(() => {
    if (done || failed) return;
    const started = Date.now();
    void load();
    const timer = setInterval(() => {
      if (Date.now() - started > GIVE_UP_MS) {
        setGaveUp(true);
        clearInterval(timer);
      } else void load();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [done, failed, load]);

  if (failed || gaveUp) {
    return (
      <p className="flex items-center gap-2 text-destructive text-xs" data-testid="extraction-status">
        Saving memories failed
        <button
          type="button"
          className="inline-flex items-center gap-1 underline-offset-2 hover:underline"
          onClick={async () => {
            setGaveUp(false);
            await fetch(`/api/v1/threads/${threadId}/extraction`, { method: "POST" });
            setState((previous) => (previous ? { ...previous, runs: [] } : previous));
          }}
        >
          <RotateCcw className="size-3" aria-hidden /> retry
        </button>
      </p>
    );
  }
  if (!done) {
    return (
      <p className="flex items-center gap-1.5 text-muted-foreground text-xs" data-testid="extraction-status">
        <LoaderCircle className="size-3 animate-spin" aria-hidden /> Saving memories…
      </p>
    );
  }
  // Everything since the user's last message was read by the run that covers it.
  const covering = state.runs.find((run) => run.status === "succeeded" && run.messages.through >= messageCount);
  const applied = covering?.opsApplied ?? [];
  // What the chat itself held for review is decided under its answer (answer-proposals.tsx); this counts the run's.
  const awaiting = (state.pendingProposals ?? [])
    .filter((entry) => covering && entry.runId === covering.id)
    .reduce((sum, entry) => sum + entry.count, 0);
  const review =
    awaiting > 0 ? (
      <p data-testid="pending-review">
        <Link href="/memories/review" className="font-medium text-foreground hover:underline">
          {awaiting} {awaiting === 1 ? "change awaits" : "changes await"} your review
        </Link>
      </p>
    ) : null;
  if (applied.length === 0) {
    return (
      <div className="text-muted-foreground text-xs" data-testid="extraction-status">
        {review ?? <p>Memories up to date</p>}
      </div>
    );
  }
  const counts = (["insert", "update", "delete"] as const)
    .map((op) => [op, applied.filter((entry) => entry.op === op).length] as const)
    .filter(([, count]) => count > 0)
    .map(([op, count]) => `${count} ${LABEL[op]}`);
  return (
    <div className="text-muted-foreground text-xs" data-testid="extraction-status">
      <p>{counts.join(" · ")}</p>
      {review}
      <ul className="mt-1 space-y-0.5">
        {applied.map((entry) => (
          <li key={`${entry.op}-${entry.memoryId}`}>
            <Link href={`/memories/${entry.memoryId}`} className="hover:underline">
              {LABEL[entry.op]}: {entry.text}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

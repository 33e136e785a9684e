"use client";

import { Sparkles } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import type { z } from "zod";
import { tidyUpAction } from "@/app/(console)/memories/actions";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { memoryHealthResponse } from "@/lib/api/consolidation-requests";

type Health = z.output<typeof memoryHealthResponse>;

const COUNTS: Array<{ key: keyof Health; label: string; hint: string }> = [
  { key: "duplicates", label: "Duplicates", hint: "pairs of memories that say the same" },
  { key: "conflicts", label: "Conflicts", hint: "pairs giving different values for one fact" },
  { key: "expired", label: "Expired", hint: "plans whose date has passed, still recalled" },
  { key: "neverRecalled", label: "Never recalled", hint: "memories no chat has used yet" },
  { key: "pendingProposals", label: "Waiting for review", hint: "changes held for your approval" },
];

/**
 * Memory health on the console home (docs/memory-model.md, "Memory health"): what the next consolidation run would
 * look at, the last run, and "Tidy up now". While a run waits or runs the page refreshes itself to show its end.
 */
export function MemoryHealthCard({ health, readOnly }: { health: Health; readOnly: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const last = health.lastConsolidation;
  const inProgress = last?.status === "queued" || last?.status === "running";

  useEffect(() => {
    if (!inProgress) return;
    const timer = setInterval(() => router.refresh(), 1_000);
    return () => clearInterval(timer);
  }, [inProgress, router]);

  const tidy = () =>
    startTransition(async () => {
      const result = await tidyUpAction({});
      setMessage(result.ok ? null : result.error.message);
      router.refresh();
    });

  return (
    <Card className="space-y-3 p-4" aria-labelledby="memory-health-title" data-testid="memory-health">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="memory-health-title" className="font-semibold">
          Memory health
        </h2>
        {readOnly ? null : (
          <Button size="sm" variant="outline" onClick={tidy} disabled={pending || inProgress}>
            <Sparkles className="size-3.5" aria-hidden /> Tidy up now
          </Button>
        )}
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
        {COUNTS.map(({ key, label, hint }) => (
          <div key={key} title={hint}>
            <dt className="text-muted-foreground text-xs">{label}</dt>
            <dd className="font-medium tabular-nums" data-testid={`health-${key}`}>
              {String(health[key])}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-muted-foreground text-xs" role="status" data-testid="health-last-run">
        {last ? describeRun(last) : `${health.memories} memories; never tidied yet.`}
      </p>
      {message ? (
        <p className="text-destructive text-xs" role="alert">
          {message}
        </p>
      ) : null}
    </Card>
  );
}

function describeRun(run: NonNullable<Health["lastConsolidation"]>): string {
  if (run.status === "queued" || run.status === "running") return "Tidying up…";
  if (run.status !== "succeeded") return `Last tidy-up ${run.status}${run.error ? `: ${run.error}` : ""}.`;
  const applied = run.opsApplied.length;
  const held = run.opsRejected.length;
  const when = run.finishedAt ? new Date(run.finishedAt).toLocaleString("en-GB", { timeZone: "UTC" }) : "";
  return `Last tidy-up ${when} UTC: ${applied} ${applied === 1 ? "change" : "changes"}, ${held} left or held for review${run.revertedAt ? " (undone)" : ""}.`;
}

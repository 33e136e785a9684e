"use client";

import { RotateCcw } from "lucide-react";
import { useState, useTransition } from "react";
import { retryRunAction } from "@/app/(console)/memories/runs/actions";
import { Button } from "@/components/ui/button";

export function RetryRunButton({ runId }: { runId: string }) {
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        size="sm"
        variant="outline"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await retryRunAction(runId);
            setMessage(result.ok ? "Queued again" : result.error.message);
          })
        }
      >
        <RotateCcw className="size-3.5" aria-hidden /> {pending ? "Retrying…" : "Retry"}
      </Button>
      {message ? (
        <span role="status" className="text-muted-foreground text-xs">
          {message}
        </span>
      ) : null}
    </span>
  );
}

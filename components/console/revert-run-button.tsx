"use client";

import { Undo2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { revertRunAction } from "@/app/(console)/memories/runs/actions";
import { Button } from "@/components/ui/button";
import { SkippedMemories } from "./skipped-memories";

/** Undoes the run's applied ops; says what was put back and what was left because it changed since. */
export function RevertRunButton({ runId }: { runId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const [skipped, setSkipped] = useState<Array<{ memoryId: string; reason: string }>>([]);
  return (
    <div className="space-y-1">
      <span className="inline-flex items-center gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={pending}
          onClick={() =>
            start(async () => {
              const result = await revertRunAction(runId);
              if (!result.ok) {
                setMessage(result.error.message);
                return;
              }
              const count = result.reverted.length;
              setMessage(
                `Reverted ${count} ${count === 1 ? "memory" : "memories"}` +
                  (result.skipped.length ? `; ${result.skipped.length} left as they are:` : "."),
              );
              setSkipped(result.skipped);
              router.refresh();
            })
          }
        >
          <Undo2 className="size-3.5" aria-hidden /> {pending ? "Reverting…" : "Undo this run"}
        </Button>
        {message ? (
          <span role="status" className="text-muted-foreground text-xs">
            {message}
          </span>
        ) : null}
      </span>
      <SkippedMemories skipped={skipped} testId="revert-skipped" />
    </div>
  );
}

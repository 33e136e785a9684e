"use client";

import { Loader2, Undo2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { revertMemoryAction } from "@/app/(console)/memories/actions";
import { Button } from "@/components/ui/button";

/** Writes this version's content as a new version; stale pages get a conflict instead of overwriting. */
export function RevertButton({ id, version, currentVersion }: { id: string; version: number; currentVersion: number }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        size="sm"
        variant="outline"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await revertMemoryAction({ id, version, expectedVersion: currentVersion });
            if (result.ok) {
              setError(null);
              router.refresh();
            } else if (result.error.code === "conflict") {
              setError("The memory changed since this page loaded; reload to see the latest version.");
            } else {
              setError(result.error.code === "not_found" ? "This memory no longer exists." : result.error.message);
            }
          })
        }
      >
        {pending ? (
          <Loader2 className="size-3.5 animate-spin" aria-hidden />
        ) : (
          <Undo2 className="size-3.5" aria-hidden />
        )}
        Revert to this version
      </Button>
      {error ? (
        <span role="alert" className="text-destructive text-xs">
          {error}
        </span>
      ) : null}
    </span>
  );
}

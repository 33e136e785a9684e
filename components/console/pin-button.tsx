"use client";

import { Loader2, Pin, PinOff } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { pinMemoryAction } from "@/app/(console)/memories/actions";
import { Button } from "@/components/ui/button";

/** Pinned memories are recalled into every chat turn; the toggle writes a version saying who pinned it. */
export function PinButton({ id, pinned, compact = false }: { id: string; pinned: boolean; compact?: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const label = pinned ? "Unpin" : "Pin";
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        size="sm"
        variant={pinned ? "default" : "outline"}
        disabled={pending}
        aria-pressed={pinned}
        aria-label={compact ? `${label} this memory` : undefined}
        title={pinned ? "Pinned: recalled in every chat turn. Click to unpin." : "Pin: recall in every chat turn"}
        onClick={() =>
          startTransition(async () => {
            const result = await pinMemoryAction({ id, pinned: !pinned });
            if (result.ok) {
              setError(null);
              router.refresh();
            } else setError(result.error.code === "not_found" ? "This memory no longer exists." : result.error.message);
          })
        }
      >
        {pending ? (
          <Loader2 className="size-3.5 animate-spin" aria-hidden />
        ) : pinned ? (
          <PinOff className="size-3.5" aria-hidden />
        ) : (
          <Pin className="size-3.5" aria-hidden />
        )}
        {compact ? null : label}
      </Button>
      {error ? (
        <span role="alert" className="text-destructive text-xs">
          {error}
        </span>
      ) : null}
    </span>
  );
}

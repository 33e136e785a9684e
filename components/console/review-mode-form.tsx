"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setReviewModeAction } from "@/app/(console)/memories/review/actions";
import { Button } from "@/components/ui/button";
import type { ReviewMode } from "@/lib/memory/review";

const MODES: Array<{ value: ReviewMode; label: string; description: string }> = [
  {
    value: "all",
    label: "Review everything",
    description: "Every change the background manager wants to make waits on the Review page for your approval.",
  },
  {
    value: "deletes",
    label: "Review extra deletions (default)",
    description:
      "The assistant may forget one memory per chat turn or background run; any further deletion waits for you.",
  },
  { value: "off", label: "No review", description: "Changes apply at once (they are still checked and recorded)." },
];

export function ReviewModeForm({ mode }: { mode: ReviewMode }) {
  const router = useRouter();
  const [chosen, setChosen] = useState<ReviewMode>(mode);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        startTransition(async () => {
          const result = await setReviewModeAction(chosen);
          setMessage(result.ok ? "Saved." : result.error.message);
          if (result.ok) router.refresh();
        });
      }}
    >
      <fieldset className="space-y-2">
        <legend className="font-medium text-sm">Review mode</legend>
        {MODES.map((option) => (
          <label key={option.value} className="flex items-start gap-2 rounded-md border p-2 text-sm">
            <input
              type="radio"
              name="review"
              value={option.value}
              checked={chosen === option.value}
              onChange={() => setChosen(option.value)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{option.label}</span>
              <span className="block text-muted-foreground text-xs">{option.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <Button type="submit" disabled={pending || chosen === mode}>
        Save
      </Button>
      <p role="status" className="text-sm">
        {message}
      </p>
    </form>
  );
}

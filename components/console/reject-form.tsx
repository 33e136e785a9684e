"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * Rejecting a proposal with an optional reason, on the Review page and under a chat answer alike: the field takes the
 * focus, Enter rejects, Escape or Cancel goes back.
 */
export function RejectForm({
  id,
  busy,
  onReject,
  onCancel,
}: {
  /** Unique on the page: the reason field's id is derived from it. */
  id: string;
  busy: boolean;
  onReject: (reason: string | undefined) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState("");
  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        onReject(reason.trim() || undefined);
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <label htmlFor={`${id}-reason`} className="font-medium text-xs">
        Reason (optional)
      </label>
      <input
        id={`${id}-reason`}
        className="h-8 w-full rounded-md border bg-background px-2 text-sm"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        // biome-ignore lint/a11y/noAutofocus: the person just asked to reject
        autoFocus
      />
      <div className="flex gap-2">
        <Button size="sm" type="submit" variant="destructive" disabled={busy}>
          Reject
        </Button>
        <Button size="sm" type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

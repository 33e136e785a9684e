"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState, useTransition } from "react";
import { saveInstructionsAction } from "@/app/(console)/memories/instructions/actions";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";

const MAX_CHARS = 4_000;

/** The current instructions with an edit form; saving against a version someone else replaced is refused. */
export function InstructionsEditor({ text, version, readOnly }: { text: string; version: number; readOnly: boolean }) {
  const router = useRouter();
  const id = useId();
  const [draft, setDraft] = useState(text);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  // A revert or an approved proposal changes the text under the form: show what now stands.
  useEffect(() => setDraft(text), [text]);
  const save = () =>
    startTransition(async () => {
      const result = await saveInstructionsAction({ text: draft, expectedVersion: version });
      if (!result.ok) setMessage({ error: true, text: result.error.message });
      else {
        setMessage({ error: false, text: `Saved as version ${result.version}.` });
        router.refresh();
      }
    });
  return (
    <section className="space-y-2 rounded-lg border p-3" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="font-medium text-sm">
        {version > 0 ? `Current instructions (version ${version})` : "No instructions yet"}
      </h2>
      {readOnly ? (
        <p className="whitespace-pre-wrap text-sm" data-testid="current-instructions">
          {text || "—"}
        </p>
      ) : (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <Label htmlFor={`${id}-text`}>Your instructions, one per line</Label>
          <textarea
            id={`${id}-text`}
            data-testid="current-instructions"
            className="min-h-28 w-full rounded-md border bg-background px-3 py-2 text-sm"
            maxLength={MAX_CHARS}
            placeholder="Keep answers short; use bullet points."
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <Button type="submit" size="sm" disabled={pending || draft === text}>
            Save instructions
          </Button>
        </form>
      )}
      {message ? (
        <p className={message.error ? "text-destructive text-xs" : "text-muted-foreground text-xs"} role="status">
          {message.text}
        </p>
      ) : null}
    </section>
  );
}

"use client";

import { Loader2 } from "lucide-react";
import { Dialog } from "radix-ui";
import { useId, useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, type ButtonProps } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export interface ConfirmDialogProps {
  trigger: React.ReactNode;
  triggerVariant?: ButtonProps["variant"];
  triggerDisabled?: boolean;
  title: string;
  description: React.ReactNode;
  /** The word the person must type before the action runs. */
  word: string;
  confirmLabel: string;
  destructive?: boolean;
  /** Runs the action with the typed word; resolves to an error message, or null when done. */
  onConfirm: (typed: string) => Promise<string | null>;
}

/** A destructive action behind a dialog that only enables once the confirmation word is typed. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const inputId = useId();
  const matches = typed.trim().toLowerCase() === props.word.toLowerCase();

  function change(next: boolean) {
    if (pending) return;
    setOpen(next);
    setTyped("");
    setError(null);
  }

  function confirm(event: React.FormEvent) {
    event.preventDefault();
    if (!matches) return;
    startTransition(async () => {
      const failure = await props.onConfirm(typed);
      if (failure) setError(failure);
      else setOpen(false);
    });
  }

  return (
    <Dialog.Root open={open} onOpenChange={change}>
      <Dialog.Trigger asChild>
        <Button variant={props.triggerVariant ?? "outline"} size="sm" disabled={props.triggerDisabled}>
          {props.trigger}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border bg-card p-5 shadow-lg">
          <Dialog.Title className="font-semibold text-lg">{props.title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 text-muted-foreground text-sm">{props.description}</div>
          </Dialog.Description>
          <form onSubmit={confirm} className="mt-4 space-y-3">
            <Label htmlFor={inputId}>
              Type <span className="font-mono">{props.word}</span> to confirm
            </Label>
            <Input
              id={inputId}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              autoFocus
            />
            {error ? <Alert tone="error">{error}</Alert> : null}
            <div className="flex justify-end gap-2">
              <Dialog.Close asChild>
                <Button type="button" variant="ghost" disabled={pending}>
                  Cancel
                </Button>
              </Dialog.Close>
              <Button
                type="submit"
                variant={props.destructive ? "destructive" : "default"}
                disabled={!matches || pending}
              >
                {pending ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
                {pending ? "Working…" : props.confirmLabel}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

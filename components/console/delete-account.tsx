"use client";

import { Trash2 } from "lucide-react";
import { deleteAccountAction } from "@/app/(console)/settings/account-actions";
import { DELETE_ACCOUNT_CONFIRMATION } from "@/lib/account/confirmation";
import { ConfirmDialog } from "./confirm-dialog";

/** Deletes this account and everything in it, behind the typed confirmation the API asks for too; then sign-in. */
export function DeleteAccount({ isGuest }: { isGuest: boolean }) {
  async function remove(typed: string): Promise<string | null> {
    const result = await deleteAccountAction(typed.trim().toLowerCase());
    if (!result.ok) return result.error.message;
    window.location.assign("/login");
    return null;
  }

  return (
    <section className="space-y-2 rounded-xl border border-destructive/40 bg-card p-4" aria-labelledby="delete-account">
      <h2 id="delete-account" className="font-medium">
        Delete my account
      </h2>
      <p className="text-muted-foreground text-sm">
        Deletes {isGuest ? "this guest account" : "your account"} and everything in it: memories and their history,
        chats, extraction runs, proposals, rules, instructions, usage, webhooks, API keys and settings. Nothing is kept
        and it cannot be undone.
      </p>
      <ConfirmDialog
        trigger={
          <span data-testid="delete-account" className="inline-flex items-center gap-1.5">
            <Trash2 className="size-3.5" aria-hidden /> Delete my account
          </span>
        }
        triggerVariant="destructive"
        title="Delete your account?"
        description="Everything in it is erased at once, on every device; you are signed out."
        word={DELETE_ACCOUNT_CONFIRMATION}
        confirmLabel="Delete my account"
        destructive
        onConfirm={remove}
      />
    </section>
  );
}

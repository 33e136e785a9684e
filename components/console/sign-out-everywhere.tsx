"use client";

import { LogOut } from "lucide-react";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** Signs out every session of this account (POST /api/v1/sessions/revoke), this browser's too, then shows sign-in. */
export function SignOutEverywhere({ isGuest }: { isGuest: boolean }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);

  function signOutEverywhere() {
    start(async () => {
      setError(null);
      const response = await fetch("/api/v1/sessions/revoke", { method: "POST" }).catch(() => null);
      if (response?.status === 204) {
        window.location.assign("/login");
        return;
      }
      const body = (await response?.json().catch(() => null)) as { error?: { message?: string } } | null;
      setError(body?.error?.message ?? "Could not sign out everywhere; try again.");
    });
  }

  return (
    <section className="space-y-2 rounded-xl border bg-card p-4" aria-labelledby="sign-out-everywhere">
      <h2 id="sign-out-everywhere" className="font-medium">
        Sign out everywhere
      </h2>
      <p className="text-muted-foreground text-sm">
        Ends every session of this account on every device, this one included. API keys keep working.
        {isGuest ? " A guest has no password: after this, this guest account cannot be signed in to again." : null}
      </p>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button
        variant="outline"
        size="sm"
        disabled={pending}
        onClick={signOutEverywhere}
        data-testid="sign-out-everywhere"
      >
        <LogOut className="size-3.5" aria-hidden /> {pending ? "Signing out…" : "Sign out everywhere"}
      </Button>
    </section>
  );
}

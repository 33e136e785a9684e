"use client";

import { Check, Copy } from "lucide-react";
import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { type CreateKeyState, createKeyAction } from "./actions";

export function CreateKeyForm() {
  const [state, action, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, null);
  return (
    <Card className="space-y-4">
      <div className="space-y-1">
        <CardTitle className="text-base">New API key</CardTitle>
        <CardDescription>A key reads or writes only your memories. You will see it once.</CardDescription>
      </div>
      <form action={action} className="grid gap-4 sm:grid-cols-[2fr_auto_1fr_auto] sm:items-end">
        <div className="space-y-1.5">
          <Label htmlFor="key-name">Name</Label>
          <Input id="key-name" name="name" placeholder="e.g. research agent" required maxLength={100} />
        </div>
        <fieldset className="space-y-1.5">
          <legend className="font-medium text-sm">Scopes</legend>
          <div className="flex h-9 items-center gap-4 text-sm">
            <label className="flex items-center gap-1.5">
              <input type="checkbox" name="scopes" value="read" defaultChecked /> read
            </label>
            <label className="flex items-center gap-1.5">
              <input type="checkbox" name="scopes" value="write" /> write
            </label>
          </div>
        </fieldset>
        <div className="space-y-1.5">
          <Label htmlFor="key-expiry">Expires (optional)</Label>
          <Input id="key-expiry" name="expiresOn" type="date" />
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {state && !state.ok ? <Alert tone="error">{state.error.message}</Alert> : null}
      {state?.ok ? <NewKey name={state.name} secret={state.key} /> : null}
    </Card>
  );
}

function NewKey({ name, secret }: { name: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <Alert className="space-y-2">
      <p>
        Key <strong>{name}</strong> created. Copy it now: it is stored only as a hash and cannot be shown again.
      </p>
      <div className="flex items-center gap-2">
        <code className="flex-1 break-all rounded bg-background px-2 py-1 font-mono text-xs" data-testid="new-api-key">
          {secret}
        </code>
        <Button type="button" variant="outline" size="sm" onClick={copy}>
          {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </Alert>
  );
}

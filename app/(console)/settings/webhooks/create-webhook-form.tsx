"use client";

import { Check, Copy } from "lucide-react";
import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { type CreateWebhookState, createWebhookAction } from "./actions";

export function CreateWebhookForm({ eventTypes }: { eventTypes: string[] }) {
  const [state, action, pending] = useActionState<CreateWebhookState, FormData>(createWebhookAction, null);
  return (
    <Card className="space-y-4">
      <div className="space-y-1">
        <CardTitle className="text-base">New webhook</CardTitle>
        <CardDescription>An https URL on a public address. You will see the signing secret once.</CardDescription>
      </div>
      <form action={action} className="space-y-4">
        <div className="space-y-1.5">
          <Label htmlFor="webhook-url">URL</Label>
          <Input
            id="webhook-url"
            name="url"
            type="url"
            placeholder="https://example.com/hooks/memory"
            required
            maxLength={2000}
          />
        </div>
        <fieldset className="space-y-1.5">
          <legend className="font-medium text-sm">Events</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
            {eventTypes.map((type) => (
              <label key={type} className="flex items-center gap-1.5 font-mono text-xs">
                <input type="checkbox" name="events" value={type} defaultChecked={type.startsWith("memory.")} /> {type}
              </label>
            ))}
          </div>
        </fieldset>
        <Button type="submit" disabled={pending}>
          {pending ? "Adding…" : "Add webhook"}
        </Button>
      </form>
      {state && !state.ok ? <Alert tone="error">{state.error.message}</Alert> : null}
      {state?.ok ? <NewSecret url={state.url} secret={state.secret} /> : null}
    </Card>
  );
}

function NewSecret({ url, secret }: { url: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <Alert className="space-y-2">
      <p>
        Webhook for <strong className="break-all">{url}</strong> added. Copy its signing secret now: it cannot be shown
        again.
      </p>
      <div className="flex items-center gap-2">
        <code
          className="flex-1 break-all rounded bg-background px-2 py-1 font-mono text-xs"
          data-testid="new-webhook-secret"
        >
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
